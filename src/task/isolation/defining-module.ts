/**
 * The URL of the module that constructs a task, read from the call stack: the first
 * frame outside fino's own source folder.
 */
import { pathToFileURL } from 'node:url';

/** fino's `src/` (or `dist/`) folder: frames inside it are fino's, not the caller's. */
const FINO_ROOT = new URL('../../', import.meta.url).href;

/** A stack frame's file as a URL: ES modules report URLs, CommonJS and vitest paths. */
function toUrl(file: string): string {
  return /^[a-z][a-z\d+.-]*:/i.test(file) && !/^[a-z]:[\\/]/i.test(file)
    ? file
    : pathToFileURL(file).href;
}

/**
 * The URL of the first module on the current call stack outside fino's source folder,
 * or `undefined` when there is none with a file (code evaluated from a string, a REPL).
 */
export function callerModuleUrl(): string | undefined {
  const saved = Error.prepareStackTrace;
  const savedLimit = Error.stackTraceLimit;
  const holder: { stack?: unknown } = {};
  let stack: unknown;
  try {
    Error.stackTraceLimit = 50;
    Error.prepareStackTrace = (_error, sites) => sites;
    Error.captureStackTrace(holder, callerModuleUrl);
    // V8 builds the stack when it is first read: read it while the override is in place.
    stack = holder.stack;
  } finally {
    Error.prepareStackTrace = saved;
    Error.stackTraceLimit = savedLimit;
  }
  const sites = Array.isArray(stack) ? (stack as NodeJS.CallSite[]) : [];
  for (const site of sites) {
    const file = site.getFileName();
    if (!file || file.startsWith('node:')) continue;
    const url = toUrl(file);
    if (!url.startsWith(FINO_ROOT)) return url;
  }
  return undefined;
}
