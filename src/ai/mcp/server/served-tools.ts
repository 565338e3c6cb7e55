/**
 * The tools one `mcpServer()` serves: each with its listed definition and its compiled
 * output schema, checked when added (a fino tool, a name not served yet).
 */
import type { Tool as McpTool } from '@modelcontextprotocol/server';
import { describeValue } from '../../../internal/describe-value.ts';
import { type AnyTask, isTask } from '../../../task/index.ts';
import { type OutputValidator, outputValidator } from '../protocol/index.ts';
import { toMcpTool } from './tool-listing.ts';

/** A tool as served: its listed definition and its compiled output schema. */
export interface ServedTool {
  tool: AnyTask;
  definition: McpTool;
  outputValidator: OutputValidator;
}

/** The served tools by name, in listing order, and their `tools/list` answer. */
export class ServedTools {
  readonly #byName = new Map<string, ServedTool>();
  #listing: McpTool[] = [];

  /** Throws, naming `mcpServer`, for a value that is not an array of uniquely named tools. */
  constructor(tools: readonly AnyTask[]) {
    for (const tool of indexTools(tools).values()) this.#byName.set(tool.name, serveTool(tool));
    this.#relist();
  }

  get(name: string): ServedTool | undefined {
    return this.#byName.get(name);
  }

  /** The served tools' names, for an error naming the available ones. */
  names(): string[] {
    return [...this.#byName.keys()];
  }

  /** The `tools/list` answer. */
  get listing(): McpTool[] {
    return this.#listing;
  }

  /** The fino tools served now, in listing order. */
  tools(): AnyTask[] {
    return [...this.#byName.values()].map((served) => served.tool);
  }

  /** Whether one served tool declares `execution` (it runs as an MCP task). */
  declaresExecution(): boolean {
    return [...this.#byName.values()].some((served) => served.tool.execution !== undefined);
  }

  /** Serves `tool` from now on; throws for a value that is not a fino tool or a name served. */
  add(tool: AnyTask): void {
    if (!isTask(tool)) {
      throw new TypeError(
        'mcpServer.addTool: expected a fino Task or Tool (build it with task() or tool())',
      );
    }
    if (this.#byName.has(tool.name)) {
      throw new TypeError(
        `mcpServer.addTool: a tool named "${tool.name}" is already served; remove it first`,
      );
    }
    this.#byName.set(tool.name, serveTool(tool));
    this.#relist();
  }

  /** Stops serving the tool named `name`; `false` when none is. */
  remove(name: string): boolean {
    if (!this.#byName.delete(name)) return false;
    this.#relist();
    return true;
  }

  #relist(): void {
    this.#listing = [...this.#byName.values()].map((served) => served.definition);
  }
}

function indexTools(tools: readonly AnyTask[]): Map<string, AnyTask> {
  if (!Array.isArray(tools)) {
    throw new TypeError(
      `mcpServer: tools: expected an array of fino tools, received ${describeValue(tools)}`,
    );
  }
  const byName = new Map<string, AnyTask>();
  for (const [index, tool] of tools.entries()) {
    if (!isTask(tool)) {
      throw new TypeError(
        `mcpServer: tools[${index}]: expected a fino Task or Tool (build it with task() or tool()), received ${describeValue(tool)}`,
      );
    }
    if (byName.has(tool.name)) {
      throw new TypeError(
        `mcpServer: two tools are named "${tool.name}"; tool names must be unique`,
      );
    }
    byName.set(tool.name, tool);
  }
  return byName;
}

function serveTool(tool: AnyTask): ServedTool {
  return {
    tool,
    definition: toMcpTool(tool),
    outputValidator: outputValidator(tool.outputSchema, `mcpServer: tool "${tool.name}"`),
  };
}
