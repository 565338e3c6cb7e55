/**
 * `ctx.elicit()` inside a prompt's `get`: on a 2025-era connection an
 * `elicitation/create` request while `prompts/get` is open; on 2026-07-28 an
 * input-required result (SEP-2322) answered by calling `prompts/get` again, `get` run
 * again from the start with the recorded answers, as tools do (decisions 205, 207).
 */
import {
  type ClientCapabilities,
  type GetPromptResult,
  type InputRequiredResult,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CallStateCodec } from './call-state.ts';
import { InputRounds } from './input-rounds.ts';
import { getPrompt, type McpServedPrompt } from './prompts.ts';
import { mcpElicit, mcpLog } from './server-requests.ts';

/** What answering one `prompts/get` needs besides the prompt. */
export interface PromptSetting {
  callState: CallStateCodec;
  /** The client's capabilities as declared at `initialize` (2025-era connections). */
  connectionCapabilities(): ClientCapabilities | undefined;
  /** Served on MCP 2026-07-28: `ctx.elicit` asks through input-required results. */
  inputRequired: boolean;
}

/** The name a prompt's state is sealed under, apart from any tool's. */
const sealedName = (prompt: McpServedPrompt) => `prompts/get:${prompt.name}`;

/** Answers one `prompts/get` for `served`: its messages, or (2026-07-28) what it asks first. */
export async function answerPrompt(
  served: McpServedPrompt,
  args: Record<string, string> | undefined,
  ctx: ServerContext,
  setting: PromptSetting,
): Promise<GetPromptResult | InputRequiredResult> {
  const rounds = setting.inputRequired
    ? new InputRounds(
        await recordedInputs(served, args, ctx, setting.callState),
        ctx.mcpReq.inputResponses,
      )
    : undefined;
  const context = {
    signal: ctx.mcpReq.signal,
    log: mcpLog(ctx),
    elicit: mcpElicit(ctx, setting.connectionCapabilities, rounds?.elicit),
  };
  try {
    return await getPrompt(served, args, context);
  } catch (error) {
    const inputRequests = rounds?.pending();
    if (rounds === undefined || inputRequests === undefined) throw error;
    const requestState = await setting.callState.seal(sealedName(served), args, {
      approved: false,
      inputs: rounds.recorded(),
    });
    return inputRequired({ inputRequests, requestState });
  }
}

/** The answers of earlier rounds; a state not sealed here for this prompt and these arguments is `-32602`. */
async function recordedInputs(
  served: McpServedPrompt,
  args: Record<string, string> | undefined,
  ctx: ServerContext,
  codec: CallStateCodec,
) {
  const sealed = ctx.mcpReq.requestState<string>();
  if (sealed === undefined) return [];
  const state = await codec.open(sealed, sealedName(served), args);
  if (state === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid or expired requestState for prompt "${served.name}": this server did not issue it for this prompt and these arguments, or its hour has passed; get the prompt again without requestState`,
    );
  }
  return state.inputs ?? [];
}
