/**
 * The tools of the isolation benchmark, in a module of their own: an isolated tool's
 * worker imports its defining module, and must not run the benchmark.
 */
import { tool } from '../../src/ai/tool/index.ts';
import { v } from '../../src/validate/index.ts';

const parameters = v.object({ a: v.number(), b: v.number() });
const execute = ({ a, b }: { a: number; b: number }) => String(a + b);

export const inProcess = tool({ name: 'add', parameters, execute });

export const isolated = tool({ name: 'add_isolated', parameters, isolation: 'worker', execute });

/** The module's URL, for tools that name it explicitly (a fresh worker pool per limit). */
export const TOOLS_MODULE = import.meta.url;
export { execute, parameters };
