/**
 * One MCP `tools/call` answered by a fino tool: the approval gate, the call itself with
 * an abort signal tied to the request, and suspension continued through elicitation.
 * See docs/decisions/042.
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type InputRequests,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { AnyTask, InvokeContext, ToolResultObject } from '../../../task/index.ts';
import {
  approvalMeta,
  errorResult,
  type OutputValidator,
  resultParts,
  structuredOutput,
  toCallToolResult,
  withTextForm,
} from '../protocol/index.ts';
import { noElicitationHint } from './approval-hint.ts';
import type { CallState, CallStateCodec } from './call-state.ts';
import { InputRounds } from './input-rounds.ts';
import { progressNotifier } from './progress-notifier.ts';
import { type CapabilitiesOf, mcpElicit, mcpLog, mcpSample } from './server-requests.ts';
import { mcpListRoots } from './server-roots.ts';

/**
 * How a tool that needs a human decision (it `requiresApproval`, or it suspends) is served:
 * `'elicit'` asks the client's user through elicitation and refuses when the client
 * cannot ask; `'client'` trusts the client's own confirmation (it sees the annotations)
 * and runs approval-gated tools directly; `'deny'` refuses every such call.
 */
export type ApprovalMode = 'elicit' | 'client' | 'deny';

/** What answering one call needs besides the tool. */
export interface CallSetting {
  approval: ApprovalMode;
  callState: CallStateCodec;
  /** The client's capabilities as declared at `initialize` (2025-era connections). */
  connectionCapabilities(): ClientCapabilities | undefined;
  /** The tool's output schema, compiled once. */
  outputValidator: OutputValidator;
  /** Served on MCP 2026-07-28: `ctx.sample`/`ctx.elicit` ask through input-required results. */
  inputRequired?: boolean;
}

const APPROVAL_KEY = 'approval';
/** The field of the form that answers a suspended call's question. */
export const ANSWER_KEY = 'answer';

/**
 * Answers one `tools/call` for `tool`. Never throws for anything the tool does, except
 * the `-32021` of a client capability a 2026-era request did not declare (decision 209).
 */
export async function callTool(
  tool: AnyTask,
  args: unknown,
  ctx: ServerContext,
  setting: CallSetting,
): Promise<CallToolResult | InputRequiredResult> {
  const state = await openState(tool, args, ctx, setting.callState);
  const askFor = async (inputRequests: InputRequests, next: CallState) =>
    inputRequired({
      inputRequests,
      requestState: await setting.callState.seal(tool.name, args, next),
    });
  const ask = (
    message: string,
    key: string,
    schema: Record<string, unknown>,
    next: CallState,
    meta?: Record<string, unknown>,
  ) =>
    askFor(
      {
        [key]: inputRequired.elicit({
          message,
          requestedSchema: schema as never,
          ...(meta ? { _meta: meta } : {}),
        }),
      },
      next,
    );
  const canElicit = clientCanElicit(ctx, setting);
  const rounds = setting.inputRequired
    ? new InputRounds(state.inputs ?? [], ctx.mcpReq.inputResponses)
    : undefined;
  /** What the call asks its client now, when it asks (2026-07-28). */
  const askInputs = async () => {
    const requests = rounds?.pending();
    return rounds && requests && askFor(requests, waitingState(state, rounds, runContext));
  };

  if (!state.approved && setting.approval !== 'client' && tool.requiresApproval) {
    if (setting.approval === 'deny') {
      return errorResult(
        `Tool "${tool.name}" requires approval, and this server refuses such calls (approval: 'deny'). It was not executed.`,
      );
    }
    const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_KEY);
    if (answer.kind === 'elicit') {
      if (answer.action !== 'accept' || answer.content?.approve !== true) {
        return errorResult(`The user rejected the call to "${tool.name}". It was not executed.`);
      }
      state.approved = true;
    } else if (!canElicit) {
      return errorResult(
        `Tool "${tool.name}" requires approval, and this client cannot ask its user (it declares no elicitation capability). It was not executed. ${noElicitationHint(tool)}`,
      );
    } else {
      return ask(
        approvalQuestion(tool, args),
        APPROVAL_KEY,
        APPROVAL_SCHEMA,
        { approved: false },
        approvalMeta(tool.name, args),
      );
    }
  }

  const asks = clientAsks(ctx, setting.connectionCapabilities, rounds);
  const runContext: InvokeContext = {
    signal: ctx.mcpReq.signal,
    toolCallId: String(ctx.mcpReq.id),
    step: 0,
    runId: ctx.sessionId ?? 'mcp',
    messages: [],
    log: mcpLog(ctx),
    ...asks.context,
  };
  const progress = progressNotifier(ctx);
  if (progress) runContext.progress = progress.report;
  if (state.resumed !== undefined) runContext.resumeValue = state.resumed.value;
  else if (state.question !== undefined) {
    const answer = inputResponse(ctx.mcpReq.inputResponses, ANSWER_KEY);
    if (answer.kind !== 'elicit' || answer.action !== 'accept') {
      return errorResult(`The user did not answer "${state.question}"; "${tool.name}" stopped.`);
    }
    runContext.resumeValue = answer.content?.[ANSWER_KEY];
  }

  try {
    const result = await tool.invoke(args, runContext);
    asks.throwIfMissing(result);
    await progress?.flush();
    const asking = await askInputs();
    if (asking) return asking; // the tool caught the signal: the client is asked all the same
    return checkedResult(tool.name, result, setting.outputValidator);
  } catch (error) {
    await progress?.flush();
    const asking = await askInputs();
    if (asking) return asking;
    const name = (error as Error | undefined)?.name;
    if (name === 'AbortError') return errorResult(`The call to "${tool.name}" was cancelled.`);
    if (name !== 'SuspendSignal') return asks.failed(tool.name, error);
    const question = (error as Error).message || `"${tool.name}" needs your input to continue.`;
    if (setting.approval === 'deny') {
      return errorResult(
        `Tool "${tool.name}" paused for input ("${question}"), and this server refuses calls that need a human (approval: 'deny'). It did not finish.`,
      );
    }
    if (!canElicit) {
      return errorResult(
        `Tool "${tool.name}" paused for input ("${question}"), and this client cannot answer (it declares no elicitation capability). It did not finish. ${noElicitationHint(tool)}`,
      );
    }
    const inputs = rounds?.recorded();
    return ask(question, ANSWER_KEY, ANSWER_SCHEMA, { approved: state.approved, question, inputs });
  }
}

/**
 * How the call asks its client: at once (2025 era) or in the next round (`rounds`,
 * 2026-07-28). A tool failing for a capability a 2026-era request did not declare fails
 * the request with that `-32021` (decision 209): `throwIfMissing` and `failed` throw it.
 */
function clientAsks(ctx: ServerContext, capabilities: CapabilitiesOf, rounds?: InputRounds) {
  let missing: MissingRequiredClientCapabilityError | undefined;
  const noting =
    <A, R>(ask: (request: A) => Promise<R>) =>
    async (request: A) => {
      try {
        return await ask(request);
      } catch (error) {
        if (error instanceof MissingRequiredClientCapabilityError) missing = error;
        throw error;
      }
    };
  return {
    context: {
      sample: noting(mcpSample(ctx, capabilities, rounds?.sample)),
      elicit: noting(mcpElicit(ctx, capabilities, rounds?.elicit)),
      listRoots: noting(mcpListRoots(ctx, capabilities, rounds?.listRoots)),
    },
    throwIfMissing(result: ToolResultObject) {
      if (result.isError && missing) throw missing;
    },
    /** The answer to a tool that threw `error`: the `-32021` it met, else a tool error. */
    failed(toolName: string, error: unknown): CallToolResult {
      if (missing) throw missing;
      return errorResult(
        `Tool "${toolName}" failed: ${(error as Error)?.message ?? String(error)}`,
      );
    },
  };
}

/** The state of a call that waits for the answers `rounds` asks for (2026-07-28). */
function waitingState(state: CallState, rounds: InputRounds, context: InvokeContext): CallState {
  const next: CallState = { ...state, inputs: rounds.recorded() };
  if ('resumeValue' in context) next.resumed = { value: context.resumeValue };
  return next;
}

/**
 * What the call established in earlier rounds: nothing on a first call; a state this
 * server did not seal for this tool and these arguments, or one past its hour, is
 * refused (`-32602`), as SEP-2322 asks (decision 205).
 */
async function openState(
  tool: AnyTask,
  args: unknown,
  ctx: ServerContext,
  codec: CallStateCodec,
): Promise<CallState> {
  const sealed = ctx.mcpReq.requestState<string>();
  if (sealed === undefined) return { approved: false };
  const state = await codec.open(sealed, tool.name, args);
  if (state === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid or expired requestState for "${tool.name}": this server did not issue it for this tool and these arguments, or its hour has passed; call the tool again without requestState`,
    );
  }
  return state;
}

/** The form asking a human to approve one call. */
export const APPROVAL_SCHEMA = {
  type: 'object',
  properties: {
    approve: { type: 'boolean', title: 'Approve this call', default: false },
  },
  required: ['approve'],
};

/** The form asking a human to answer a suspended call's question. */
export const ANSWER_SCHEMA = {
  type: 'object',
  properties: { [ANSWER_KEY]: { type: 'string', title: 'Answer' } },
  required: [ANSWER_KEY],
};

/** The question put to a human about calling `tool` with `args`. */
export function approvalQuestion(tool: AnyTask, args: unknown): string {
  const risk = tool.risk === 'destructive' ? ' (destructive)' : '';
  return `Allow "${tool.name}"${risk} with ${JSON.stringify(args ?? {})}?`;
}

/** Whether the client of this request declared it can ask its user (elicitation). */
export function clientCanElicit(
  ctx: ServerContext,
  setting: Pick<CallSetting, 'connectionCapabilities'>,
): boolean {
  const perRequest = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] as
    | ClientCapabilities
    | undefined;
  return (perRequest ?? setting.connectionCapabilities())?.elicitation !== undefined;
}

/**
 * The MCP form of a tool's result: a successful one with structured content checked
 * against the output schema and carried both as `structuredContent` and as text.
 */
export function checkedResult(
  toolName: string,
  result: ToolResultObject,
  validator: OutputValidator,
): CallToolResult {
  if (result.isError) return toCallToolResult({ content: result.content, isError: true });
  const { value, problem } = structuredOutput(toolName, result, validator);
  if (problem !== undefined) return errorResult(problem);
  if (value === undefined) return toCallToolResult(result);
  const mapped = toCallToolResult({ content: withTextForm(resultParts(result.content), value) });
  mapped.structuredContent = value;
  return mapped;
}
