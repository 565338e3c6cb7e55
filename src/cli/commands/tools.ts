/**
 * `fino tools <file> [--format neutral|openai|anthropic|gemini|mcp]`.
 */
import { UsageError } from '../../task/index.ts';
import { type Command, type CommandIo, writeLine } from '../command.ts';
import { loadTasks } from '../load-module.ts';
import { reportError } from '../report-error.ts';
import { formatTools, TOOL_FORMATS, type ToolFormat } from '../tool-formats.ts';

const usage = `Usage: fino tools <file> [--format neutral|openai|anthropic|gemini|mcp]

Prints, as a JSON array, the definitions of the tools and tasks <file> exports.

  --format  neutral (default): { name, description, parameters }
            openai:    { type: 'function', function: { name, description, parameters } }
            anthropic: { name, description, input_schema }
            gemini:    { name, description, parameters } (a function declaration)
            mcp:       what an MCP server lists: { name, title?, description,
                       inputSchema, outputSchema?, annotations?, _meta? }`;

const HINT = 'Run "fino tools --help" for usage.';

function parseArgs(argv: string[]): {
  file: string | undefined;
  format: ToolFormat;
  help: boolean;
} {
  let file: string | undefined;
  let format: string = 'neutral';
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--format') format = argv[++i] ?? '';
    else if (arg.startsWith('--format=')) format = arg.slice('--format='.length);
    else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option ${arg}; expected --format or --help`, HINT);
    } else if (file === undefined) file = arg;
    else throw new UsageError(`unexpected argument "${arg}"`, HINT);
  }
  if (!(TOOL_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(
      `--format must be one of ${TOOL_FORMATS.join(', ')}; got "${format}"`,
      HINT,
    );
  }
  return { file, format: format as ToolFormat, help };
}

async function main(argv: string[], io: CommandIo): Promise<number> {
  const { file, format, help } = parseArgs(argv);
  if (help) {
    writeLine(io.stdout, usage);
    return 0;
  }
  if (file === undefined) throw new UsageError('missing <file>', HINT);
  const tasks = await loadTasks(file, io);
  const defs = await formatTools(tasks, format);
  writeLine(io.stdout, JSON.stringify(defs, null, 2));
  return 0;
}

/** `fino tools`: prints the tool definitions a module exports. */
export const tools: Command = {
  name: 'tools',
  usage,
  run: (argv, io) => main(argv, io).catch((error: unknown) => reportError(error, io)),
};
