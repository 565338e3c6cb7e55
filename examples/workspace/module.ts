/**
 * The workspace tools as a module for `fino mcp` (and `fino run`, `fino tools`): they
 * serve `FINO_WORKSPACE`, or the demo folder `.fino/workspace`.
 *
 *     FINO_WORKSPACE=~/notes npx fino mcp examples/workspace/module.ts
 */
import { workspaceFolder } from './folder.ts';
import { workspaceTools } from './tools.ts';

export default await workspaceTools(await workspaceFolder());
