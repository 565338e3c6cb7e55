import { tool } from 'fino:ai/tool';
import { v } from 'fino:validate';

const remove = tool({
  name: 'remove_file',
  description: 'Delete a file from the workspace.',
  parameters: v.object({ path: v.string().describe('Workspace-relative path') }),
  risk: 'destructive',
  sideEffects: true,
  requiresApproval: true,
  timeoutMs: 10_000,
  execute: async ({ path }: { path: string }) => `deleted ${path}`,
});
console.log(JSON.stringify([remove.toToolDefinition(), remove.risk, remove.sideEffects, remove.requiresApproval, remove.timeoutMs]));
