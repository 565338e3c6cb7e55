#!/usr/bin/env node
// The `fino` command: activates the `fino:` specifiers and TypeScript loading, then
// runs the built command line (`npm run build` produces dist/).
import '../dist/register/index.js';

const { main } = await import('../dist/cli/index.js');
process.exitCode = await main(process.argv.slice(2));
