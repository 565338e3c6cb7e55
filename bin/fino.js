#!/usr/bin/env node
// The `fino` command: runs the built command line (`npm run build` produces dist/).
// The `fino:` specifiers and TypeScript loading are activated only when a command
// imports a user's module, and TypeScript only for a TypeScript file.
import { main, processIo } from '../dist/cli/index.js';

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
