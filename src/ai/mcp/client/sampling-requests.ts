/**
 * Which of a server's sampling requests an `mcpClient({ onSample })` answers, and how
 * much they may cost: a request that arrives while none of the client's own requests is
 * open (unsolicited) is refused unless allowed, and `maxTokens` is lowered to the
 * client's cap before `onSample` sees it (decision 184); its messages' content — a part or
 * an array of parts — is checked first (decision 216).
 */
import {
  type Client,
  type CreateMessageRequest,
  type CreateMessageResult,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/client';
import { describeValue } from '../../../internal/describe-value.ts';
import { checkOptionalType, typeError } from '../../../internal/option-type.ts';
import { fromSamplingContent, PartBudget } from '../protocol/index.ts';
import type { SampleHandler } from './client-catalog.ts';

/** Limits on the server's sampling requests: {@link McpClientOptions.sampling}. */
export interface McpClientSamplingOptions {
  /**
   * The most tokens one sampling request may ask for: a larger `maxTokens` is lowered to
   * it before `onSample` sees the request (default {@link DEFAULT_SAMPLING_MAX_TOKENS}).
   */
  maxTokens?: number;
  /**
   * Answer sampling requests that arrive while none of this client's requests (a tool
   * call, a resource read, …) is open. Default `false`: they are refused with an MCP
   * error (`-32600`), since a server should sample only for work the client asked of it.
   */
  allowUnsolicited?: boolean;
}

/** The default of {@link McpClientSamplingOptions.maxTokens}. */
export const DEFAULT_SAMPLING_MAX_TOKENS = 4096;

/** The checked sampling limits. */
export interface SamplingLimits {
  maxTokens: number;
  allowUnsolicited: boolean;
}

/** Checks the `sampling` option at construction; returns the limits with their defaults. */
export function samplingLimits(option: McpClientSamplingOptions | undefined): SamplingLimits {
  if (option !== undefined && (option === null || typeof option !== 'object')) {
    throw new TypeError(
      `mcpClient: sampling: expected { maxTokens?, allowUnsolicited? }, received ${describeValue(option)}`,
    );
  }
  const maxTokens = option?.maxTokens ?? DEFAULT_SAMPLING_MAX_TOKENS;
  if (!Number.isSafeInteger(maxTokens) || maxTokens <= 0) {
    throw new TypeError(
      `mcpClient: sampling.maxTokens: expected an integer > 0, received ${describeValue(maxTokens)}`,
    );
  }
  checkOptionalType(
    option?.allowUnsolicited,
    'boolean',
    'mcpClient: sampling.allowUnsolicited',
    typeError,
  );
  return { maxTokens, allowUnsolicited: option?.allowUnsolicited ?? false };
}

/** Answers `sdk`'s sampling requests with `onSample`, within `limits`. */
export function answerSampling(
  sdk: Client,
  onSample: SampleHandler,
  limits: SamplingLimits,
  openRequests: () => number,
): void {
  sdk.setRequestHandler('sampling/createMessage', async (request) => {
    if (!limits.allowUnsolicited && openRequests() === 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        'mcpClient: refused a sampling request that came while no request of this client was open; a client answers sampling only for its own requests (mcpClient({ sampling: { allowUnsolicited: true } }) allows it)',
      );
    }
    checkSamplingContent(request.params.messages);
    const params: CreateMessageRequest['params'] = {
      ...request.params,
      maxTokens: Math.min(request.params.maxTokens, limits.maxTokens),
    };
    return (await onSample(params)) as CreateMessageResult as never;
  });
}

/**
 * Refuses (`-32602`) a request whose messages hold more than `MAX_SAMPLING_PARTS` parts
 * or a part that is not text, an image or audio (this client offers sampling no tools).
 */
function checkSamplingContent(messages: CreateMessageRequest['params']['messages']): void {
  const budget = new PartBudget('mcpClient');
  try {
    messages.forEach((message, index) => {
      fromSamplingContent(message.content, `mcpClient: messages[${index}].content`, budget);
    });
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, (error as Error).message);
  }
}

/** Counts `sdk`'s requests that still await their answer (every request goes through `request()`). */
export function countOpenRequests(sdk: Client): () => number {
  let open = 0;
  const send = sdk.request.bind(sdk) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(sdk, {
    request: async (...args: unknown[]) => {
      open++;
      try {
        return await send(...args);
      } finally {
        open--;
      }
    },
  });
  return () => open;
}
