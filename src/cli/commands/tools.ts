/**
 * `fino tools <file> [--format neutral|openai|anthropic|gemini|mcp]`.
 */
import { task } from '../../task/index.ts';
import { v } from '../../validate/index.ts';
import { writeLine } from '../command.ts';
import { EXIT } from '../exit-codes.ts';
import { loadTasks } from '../load-module.ts';
import { taskCommand } from '../task-command.ts';
import { formatTools, TOOL_FORMAT_SHAPES, TOOL_FORMATS } from '../tool-formats.ts';

const toolsInput = v.object({
  file: v.string().describe('a JavaScript or TypeScript module exporting tools or tasks'),
  format: v
    .enum(TOOL_FORMATS)
    .default('neutral')
    .describe('the shape of each definition (see above)'),
});

const description = `Prints, as a JSON array, the definitions of the tools and tasks <file> exports:
${TOOL_FORMATS.map((format) => `  ${format.padEnd(10)} ${TOOL_FORMAT_SHAPES[format]}`).join('\n')}`;

/** `fino tools`: prints the tool definitions a module exports. */
export const tools = taskCommand('tools', (io) =>
  task({
    name: 'tools',
    description,
    inputSchema: toolsInput,
    cli: { positionals: ['file'] },
    run: async ({ file, format }) => {
      const tasks = await loadTasks(file, io);
      const defs = await formatTools(tasks, format);
      writeLine(io.stdout, JSON.stringify(defs, null, 2));
      return EXIT.ok;
    },
  }),
);
