/**
 * MCP resources: `resource()` for one URI, `resourceTemplate()` for a family of URIs
 * (RFC 6570, parsed by the SDK's `UriTemplate`, matched in linear time by
 * `uri-template-match.ts`), and what `mcpServer()` answers for `resources/list`,
 * `resources/templates/list` and `resources/read`. Decisions 121, 185.
 */
import {
  type ReadResourceResult,
  type Resource,
  UriTemplate,
  type ResourceTemplateType as WireResourceTemplate,
} from '@modelcontextprotocol/server';
import { describeValue } from '../../../internal/describe-value.ts';
import { checkOptionalType, typeError } from '../../../internal/option-type.ts';
import type { LogFn } from '../../../task/index.ts';
import { type UriMatcher, uriMatcher } from './uri-template-match.ts';

/** What a resource's `read` receives. */
export interface ResourceContext {
  /** The URI being read. */
  uri: string;
  /** Aborts when the client cancels the read. */
  signal: AbortSignal;
  /** A log message to the client (`notifications/message`, honouring `logging/setLevel`). */
  log: LogFn;
}

/**
 * One content of a read: a string (text, of the resource's `mimeType`), `{ text }`,
 * `{ blob }` (base64) or bytes (a `Uint8Array`, sent as a blob).
 */
export type ResourceContent =
  | string
  | Uint8Array
  | { text: string; mimeType?: string; uri?: string }
  | { blob: string; mimeType?: string; uri?: string };

/** What `read` returns: one content or several. */
export type ResourceReadResult = ResourceContent | ResourceContent[];

interface Described {
  /** A short identifier, shown in listings. */
  name: string;
  title?: string;
  description?: string;
  /** The MIME type of the contents (e.g. `text/plain`, `image/png`). */
  mimeType?: string;
}

/** Options of {@link resource}. */
export interface ResourceOptions extends Described {
  uri: string;
  read(ctx: ResourceContext): ResourceReadResult | Promise<ResourceReadResult>;
}

/** Options of {@link resourceTemplate}. */
export interface ResourceTemplateOptions extends Described {
  /** An RFC 6570 template, e.g. `notes://{folder}/{name}`. */
  uriTemplate: string;
  /** Suggestions for a variable's value (`completion/complete`), by variable name. */
  complete?: Record<string, CompleteFn>;
  read(
    params: Record<string, string>,
    ctx: ResourceContext,
  ): ResourceReadResult | Promise<ResourceReadResult>;
}

/** Suggests values for one argument from what the user typed so far. */
export type CompleteFn = (
  value: string,
  context: { arguments: Record<string, string> },
) => readonly string[] | Promise<readonly string[]>;

const RESOURCE_BRAND: unique symbol = Symbol.for('fino.mcp.resource');

/** A resource made by {@link resource}. */
export interface McpResource extends ResourceOptions {
  readonly [RESOURCE_BRAND]: 'resource';
}

/** A resource template made by {@link resourceTemplate}. */
export interface McpResourceTemplate extends ResourceTemplateOptions {
  readonly [RESOURCE_BRAND]: 'template';
  /** The parsed template. */
  readonly template: UriTemplate;
}

/** Either kind, as `mcpServer({ resources })` takes them. */
export type AnyResource = McpResource | McpResourceTemplate;

/** The most variables one template may have. */
export const MAX_TEMPLATE_VARIABLES = 32;

/** The longest URI a resource has, or a client may read or subscribe to (8 KiB). */
export const MAX_RESOURCE_URI_CHARS = 8192;

/**
 * One resource at a fixed URI.
 *
 * @example
 * ```ts
 * import { mcpServer, resource } from 'fino:ai/mcp';
 *
 * const readme = resource({
 *   uri: 'docs://readme',
 *   name: 'readme',
 *   mimeType: 'text/markdown',
 *   read: () => '# Hello',
 * });
 * const server = mcpServer({ name: 'docs', version: '1.0.0', tools: [], resources: [readme] });
 * console.log(server.name);
 * ```
 */
export function resource(options: ResourceOptions): McpResource {
  checkDescribed('resource', options);
  if (typeof options.uri !== 'string' || !isAbsoluteUri(options.uri)) {
    throw new TypeError(
      `resource: uri: expected an absolute URI such as "docs://readme", received ${describeValue(options?.uri)}`,
    );
  }
  if (typeof options.read !== 'function') {
    throw new TypeError(
      `resource: read: expected a function, received ${describeValue(options.read)}`,
    );
  }
  return { ...options, [RESOURCE_BRAND]: 'resource' };
}

/**
 * A family of resources whose URIs follow an RFC 6570 template; `read` gets the
 * variables, and `complete` suggests their values.
 *
 * @example
 * ```ts
 * import { mcpServer, resourceTemplate } from 'fino:ai/mcp';
 *
 * const notes = resourceTemplate({
 *   uriTemplate: 'notes://{name}',
 *   name: 'note',
 *   mimeType: 'text/plain',
 *   complete: { name: (typed) => ['groceries', 'ideas'].filter((n) => n.startsWith(typed)) },
 *   read: ({ name }) => `The note called ${name}.`,
 * });
 * const server = mcpServer({ name: 'notes', version: '1.0.0', tools: [], resources: [notes] });
 * console.log(server.name);
 * ```
 */
export function resourceTemplate(options: ResourceTemplateOptions): McpResourceTemplate {
  checkDescribed('resourceTemplate', options);
  if (typeof options.uriTemplate !== 'string' || options.uriTemplate === '') {
    throw new TypeError(
      `resourceTemplate: uriTemplate: expected an RFC 6570 template such as "notes://{name}", received ${describeValue(options?.uriTemplate)}`,
    );
  }
  const braces = options.uriTemplate.split('{').length - 1;
  if (braces > MAX_TEMPLATE_VARIABLES) {
    throw new TypeError(
      `resourceTemplate: uriTemplate: expected at most ${MAX_TEMPLATE_VARIABLES} variables, received ${braces}`,
    );
  }
  let template: UriTemplate;
  try {
    template = new UriTemplate(options.uriTemplate);
  } catch (error) {
    throw new TypeError(
      `resourceTemplate: uriTemplate: ${(error as Error).message} (received ${describeValue(options.uriTemplate)})`,
    );
  }
  if (template.variableNames.length > MAX_TEMPLATE_VARIABLES) {
    throw new TypeError(
      `resourceTemplate: uriTemplate: expected at most ${MAX_TEMPLATE_VARIABLES} variables, received ${template.variableNames.length}`,
    );
  }
  if (typeof options.read !== 'function') {
    throw new TypeError(
      `resourceTemplate: read: expected a function, received ${describeValue(options.read)}`,
    );
  }
  checkCompleters('resourceTemplate', options.complete, template.variableNames);
  const matcher = templateMatcher(options.uriTemplate);
  const made: McpResourceTemplate = { ...options, template, [RESOURCE_BRAND]: 'template' };
  matchers.set(made, matcher);
  return made;
}

/** The linear-time matcher of a template; a `TypeError` names what the template lacks. */
export function templateMatcher(uriTemplate: string): UriMatcher {
  try {
    return uriMatcher(uriTemplate);
  } catch (error) {
    throw new TypeError(
      `resourceTemplate: uriTemplate: ${(error as Error).message}, received ${describeValue(uriTemplate)}`,
    );
  }
}

const matchers = new WeakMap<McpResourceTemplate, UriMatcher>();

/** The variables of `uri` under `template`, or `null` when it does not match; linear in `uri`. */
export function matchTemplate(
  template: McpResourceTemplate,
  uri: string,
): Record<string, string> | null {
  let matcher = matchers.get(template);
  if (matcher === undefined) {
    matcher = templateMatcher(template.uriTemplate);
    matchers.set(template, matcher);
  }
  return matcher.match(uri);
}

/** Whether `value` was made by {@link resource} or {@link resourceTemplate}. */
export function isResource(value: unknown): value is AnyResource {
  return typeof value === 'object' && value !== null && RESOURCE_BRAND in value;
}

/** Whether `value` is a template (else a fixed resource). */
export function isTemplate(value: AnyResource): value is McpResourceTemplate {
  return value[RESOURCE_BRAND] === 'template';
}

/** A resource's `resources/list` entry. */
export function listedResource(r: McpResource): Resource {
  return withDescription({ uri: r.uri, name: r.name }, r);
}

/** A template's `resources/templates/list` entry. */
export function listedTemplate(t: McpResourceTemplate): WireResourceTemplate {
  return withDescription({ uriTemplate: t.uriTemplate, name: t.name }, t);
}

/** The limits on what one read may return. */
export interface ReadLimits {
  /** Total bytes of all contents (text as UTF-8, blobs decoded); default 16 MiB. */
  maxBytes: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = { maxBytes: 16 * 1024 * 1024 };

/**
 * What `read` returned as a `resources/read` result, checked: each content a string,
 * text, base64 blob or bytes, a well-formed MIME type, and no more than `maxBytes` in all.
 * Throws an `Error` naming what was wrong.
 */
export function readResult(
  uri: string,
  value: ResourceReadResult,
  mimeType: string | undefined,
  limits: ReadLimits,
): ReadResourceResult {
  const items = Array.isArray(value) ? value : [value];
  let bytes = 0;
  const contents: ReadResourceResult['contents'] = [];
  const budget = (size: number) => {
    bytes += size;
    if (bytes > limits.maxBytes) {
      throw new Error(
        `it is larger than this server sends (${limits.maxBytes} bytes); read it in parts, e.g. with a resource template`,
      );
    }
  };
  for (const [index, item] of items.entries()) {
    if (typeof item === 'string') {
      budget(Buffer.byteLength(item));
      contents.push(withMime({ uri, text: item }, mimeType));
    } else if (item instanceof Uint8Array) {
      budget(item.byteLength);
      contents.push(
        withMime(
          {
            uri,
            blob: Buffer.from(item.buffer, item.byteOffset, item.byteLength).toString('base64'),
          },
          mimeType,
        ),
      );
    } else if (
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { text?: unknown }).text === 'string'
    ) {
      const text = (item as { text: string }).text;
      budget(Buffer.byteLength(text));
      contents.push(withMime({ uri: contentUri(item, uri), text }, contentMime(item, mimeType)));
    } else if (
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { blob?: unknown }).blob === 'string'
    ) {
      const blob = (item as { blob: string }).blob;
      if (!BASE64.test(blob)) {
        throw new Error(`contents[${index}].blob: expected base64 text`);
      }
      budget(Math.floor((blob.length * 3) / 4));
      contents.push(withMime({ uri: contentUri(item, uri), blob }, contentMime(item, mimeType)));
    } else {
      throw new Error(
        `read returned ${describeValue(item)} at ${index}; expected a string, bytes, { text } or { blob }`,
      );
    }
  }
  return { contents };
}

/** A MIME type as RFC 6838 spells one: `type/subtype`, optional parameters. */
const MIME =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function contentUri(item: object, uri: string): string {
  const own = (item as { uri?: unknown }).uri;
  return typeof own === 'string' ? own : uri;
}

function contentMime(item: object, fallback: string | undefined): string | undefined {
  const own = (item as { mimeType?: unknown }).mimeType;
  if (own === undefined) return fallback;
  if (typeof own !== 'string' || !MIME.test(own)) {
    throw new Error(
      `mimeType: expected a MIME type such as "text/plain", received ${describeValue(own)}`,
    );
  }
  return own;
}

function withMime<T extends object>(
  content: T,
  mimeType: string | undefined,
): T & { mimeType?: string } {
  return mimeType === undefined ? content : { ...content, mimeType };
}

function withDescription<T extends object>(entry: T, from: Described): T & Partial<Described> {
  const out: T & Partial<Described> = { ...entry };
  if (from.title !== undefined) out.title = from.title;
  if (from.description !== undefined) out.description = from.description;
  if (from.mimeType !== undefined) out.mimeType = from.mimeType;
  return out;
}

function isAbsoluteUri(uri: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:./.test(uri) && uri.length <= MAX_RESOURCE_URI_CHARS;
}

function checkDescribed(where: string, options: Described): void {
  if (typeof options?.name !== 'string' || options.name === '') {
    throw new TypeError(
      `${where}: name: expected a non-empty string, received ${describeValue(options?.name)}`,
    );
  }
  for (const key of ['title', 'description'] as const) {
    checkOptionalType(options[key], 'string', `${where}: ${key}`, typeError);
  }
  if (
    options.mimeType !== undefined &&
    (typeof options.mimeType !== 'string' || !MIME.test(options.mimeType))
  ) {
    throw new TypeError(
      `${where}: mimeType: expected a MIME type such as "text/plain", received ${describeValue(options.mimeType)}`,
    );
  }
}

/** Throws unless `complete` maps some of `names` to functions. */
export function checkCompleters(
  where: string,
  complete: Record<string, CompleteFn> | undefined,
  names: readonly string[],
): void {
  if (complete === undefined) return;
  if (typeof complete !== 'object' || complete === null) {
    throw new TypeError(
      `${where}: complete: expected { name: (value) => string[] }, received ${describeValue(complete)}`,
    );
  }
  for (const [name, fn] of Object.entries(complete)) {
    if (!names.includes(name)) {
      throw new TypeError(
        `${where}: complete.${name}: no such argument; expected one of ${names.join(', ') || '(none)'}`,
      );
    }
    if (typeof fn !== 'function') {
      throw new TypeError(
        `${where}: complete.${name}: expected a function, received ${describeValue(fn)}`,
      );
    }
  }
}
