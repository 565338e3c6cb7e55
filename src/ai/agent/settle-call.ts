import { controlFlowName, errorMessage } from '../../internal/thrown-value.ts';
import type { ContentPart, ToolCall } from '../model/index.ts';
import { SuspendSignal, type ToolRunContext } from '../tool/index.ts';
import { AgentError } from './agent-error.ts';
import type { AnyTool } from './options.ts';
import { pendingCall } from './pending-call.ts';
import { budgetResult, READ_RESULT, readResult, readResultDefinition } from './result-budget.ts';
import type { Run } from './run.ts';
import { describe } from './state.ts';
import { notOfferedMessage, offeredInStep } from './step-plan.ts';
import { guardTool } from './tool-guardrails.ts';
import type { ClearedCall, PendingCall, RunState, ToolResultPart } from './types.ts';

/** What became of one tool call: a result for the model, or a pending call. */
export type CallOutcome = { result: ToolResultPart } | { pending: PendingCall };

/**
 * Settles one tool call of the open turn: unknown tools and malformed arguments are
 * answered with an `isError` result, the approval policy is consulted (unless a decision
 * already cleared the call), and the tool is invoked with a fully populated context.
 * A suspension becomes a pending call; every other failure becomes an `isError` result.
 * Only an abort of the run itself propagates. A result longer than the tool's (or the
 * agent's) `maxResultChars` is cut, its whole kept for `read_result`, which the agent
 * answers itself.
 */
export async function settleCall(
  call: ToolCall,
  cleared: ClearedCall | undefined,
  state: RunState,
  run: Run,
): Promise<CallOutcome> {
  if (call.name === READ_RESULT) {
    const result = await run.telemetry.tool(
      call,
      readResultDefinition.description ?? '',
      async () => readResult(call, state, run.config.maxResultChars),
    );
    return { result };
  }
  const outcome = await settle(call, cleared, state, run);
  if ('result' in outcome) {
    const budget = run.config.tools.get(call.name)?.maxResultChars ?? run.config.maxResultChars;
    outcome.result = budgetResult(outcome.result, call.name, budget, state);
  }
  return outcome;
}

async function settle(
  call: ToolCall,
  cleared: ClearedCall | undefined,
  state: RunState,
  run: Run,
): Promise<CallOutcome> {
  if (run.config.providerTools.has(call.name)) return settleServerApproval(call, cleared);
  const tool = run.config.tools.get(call.name);
  if (!tool) return failure(call, unknownToolMessage(call.name, run));
  if (!offeredInStep(state, call.name)) return failure(call, notOfferedMessage(call.name));
  if (call.argsError) {
    return failure(
      call,
      `Invalid arguments for tool "${call.name}": ${call.argsError}. Send the arguments as one JSON object matching the tool's parameters.`,
    );
  }
  if (!cleared) {
    const answer = await ask(call, tool, run);
    if (answer === 'deny') {
      return failure(call, `Tool call "${call.name}" was denied by the approval policy.`);
    }
    if (answer === 'ask' || tool.requiresApproval)
      return { pending: pending('approval', call, tool) };
  }
  const ctx: Partial<ToolRunContext> = {
    signal: run.signal,
    toolCallId: call.id,
    step: state.turn!.step,
    runId: state.runId,
    messages: state.messages.slice(),
    idempotencyKey: `${state.runId}:${call.id}`,
    suspend(reason?: string, payload?: unknown): never {
      throw new SuspendSignal(reason, payload);
    },
    progress: (progress) =>
      run.emit({
        type: 'progress',
        step: state.turn!.step,
        toolCallId: call.id,
        toolName: call.name,
        progress,
      }),
    // Checked by the tool's run context before it gets here (decision 120).
    log: (level, message, data) =>
      run.emit({
        type: 'log',
        step: state.turn!.step,
        toolCallId: call.id,
        toolName: call.name,
        entry: data === undefined ? { level, message } : { level, message, data },
      }),
  };
  if (cleared?.kind === 'resume') ctx.resumeValue = cleared.resumeValue;
  return guardTool(call, state, run, () => invoke(call, tool, ctx, run));
}

/** Runs the tool: its result, a pending call when it suspends, an `isError` result when it fails. */
async function invoke(
  call: ToolCall,
  tool: AnyTool,
  ctx: Partial<ToolRunContext>,
  run: Run,
): Promise<CallOutcome> {
  try {
    const result = await run.telemetry.tool(call, tool.description, () =>
      tool.invoke(call.args, ctx),
    );
    return { result: toResultPart(call, result) };
  } catch (error) {
    if (controlFlowName(error) === 'SuspendSignal') {
      return { pending: pending('suspend', call, tool, readSuspension(error)) };
    }
    if (run.signal.aborted) throw error;
    return failure(call, `Tool "${call.name}" failed: ${errorMessage(error)}`);
  }
}

/**
 * A call of a provider tool reaches the agent only when the provider's server asks
 * approval to run it (a remote MCP call): it waits for a decision, and once approved its
 * result tells the provider to go ahead (a rejection is answered by `resume` itself).
 */
function settleServerApproval(call: ToolCall, cleared: ClearedCall | undefined): CallOutcome {
  if (cleared) {
    return { result: { type: 'tool_result', toolCallId: call.id, content: 'Approved.' } };
  }
  return {
    pending: pendingCall({
      kind: 'approval',
      toolCallId: call.id,
      toolName: call.name,
      args: call.args,
    }),
  };
}

/** The reason and payload of a suspension, read without trusting the thrown value. */
function readSuspension(error: unknown): { reason: string | undefined; payload: unknown } {
  try {
    const { message, payload } = error as { message?: unknown; payload?: unknown };
    return { reason: typeof message === 'string' ? message : undefined, payload };
  } catch {
    return { reason: undefined, payload: undefined };
  }
}

async function ask(call: ToolCall, tool: AnyTool, run: Run): Promise<'allow' | 'deny' | 'ask'> {
  if (!run.config.approval) return 'allow';
  const answer = await run.config.approval(call, tool);
  if (answer !== 'allow' && answer !== 'deny' && answer !== 'ask') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `agent approval policy: expected 'allow', 'deny' or 'ask' for tool call "${call.name}", received ${describe(answer)}`,
    );
  }
  return answer;
}

function pending(
  kind: PendingCall['kind'],
  call: ToolCall,
  tool: AnyTool,
  suspension: { reason?: string | undefined; payload?: unknown } = {},
): PendingCall {
  const init = { kind, toolCallId: call.id, toolName: call.name, args: call.args };
  return pendingCall({ ...init, ...suspension }, tool);
}

function unknownToolMessage(name: string, run: Run): string {
  const available = [...run.config.tools.keys()];
  return available.length === 0
    ? `Unknown tool "${name}": this agent has no tools.`
    : `Unknown tool "${name}". Available tools: ${available.join(', ')}.`;
}

/** An `isError` result answering `call`. */
export function failure(call: { id: string }, message: string): { result: ToolResultPart } {
  return { result: { type: 'tool_result', toolCallId: call.id, content: message, isError: true } };
}

function toResultPart(
  call: ToolCall,
  result: { content?: unknown; isError?: boolean } | null | undefined,
): ToolResultPart {
  if (result === null || typeof result !== 'object' || result.content === undefined) {
    return failure(call, `Tool "${call.name}" returned no result.`).result;
  }
  const content = result.content as string | ContentPart | ContentPart[];
  const part: ToolResultPart = {
    type: 'tool_result',
    toolCallId: call.id,
    content: typeof content === 'string' || Array.isArray(content) ? content : [content],
  };
  if (result.isError) part.isError = true;
  return part;
}
