#!/usr/bin/env node
// The `fino` command: runs the built command line (`npm run build` produces dist/).
// The `fino:` specifiers and TypeScript loading are activated only when a command
// imports a user's module, and TypeScript only for a TypeScript file.
const built = new URL('../dist/cli/index.js', import.meta.url);
const { main, processIo } = await import(built.href).catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(built.pathname)) {
    throw error;
  }
  // A git install, or a clone before its build: fino builds on pack (decision 189).
  const home = new URL('..', import.meta.url).pathname;
  process.stderr.write(
    `fino: ${built.pathname} is missing: this copy of fino was never built (installed from git, or cloned and not built). Install fino from a tarball (npm pack in a clone) or the registry, or run npm run build in ${home}\n`,
  );
  process.exit(1);
});

const importModule = async (url) => {
  const { activateFor } = await import('../dist/register/activate.js');
  await activateFor(url);
  return import(url);
};

let settled = false;
// A command whose work can never settle would otherwise end with Node's exit code 13.
process.once('beforeExit', () => {
  if (settled) return;
  process.stderr.write(
    'fino: the command stopped before finishing: it was awaiting a promise nothing can settle\nThis is a bug in the tool or in fino; please report it.\n',
  );
  process.exitCode = 1;
});
main(process.argv.slice(2), { ...processIo(), importModule }).then((code) => {
  settled = true;
  process.exitCode = code;
});
