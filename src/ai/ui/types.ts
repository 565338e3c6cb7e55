/**
 * The AI SDK's UI message stream protocol (as `ai` 7 defines it), in fino's own types:
 * the chunks fino sends a browser (`UIMessageChunk`), the messages a chat front end
 * posts and shows (`UIMessage` and its parts), and the data parts that carry what fino
 * does and the protocol has no chunk for. These mirror `ai`'s published types so that
 * fino needs no `ai` at run time or for its types; `test/ai/ui/types.test.ts` checks at
 * compile time that every chunk and message fino writes is one `ai` accepts
 * (decision 245).
 */

/** A JSON value, as the protocol's metadata and data parts carry it. */
export type UIJsonValue =
  | null
  | string
  | number
  | boolean
  | { readonly [key: string]: UIJsonValue | undefined }
  | readonly UIJsonValue[];

/** A JSON object. */
export type UIJsonObject = { [key: string]: UIJsonValue | undefined };

/** Provider metadata, by provider name, as the protocol carries it. */
export type UIProviderMetadata = Record<string, UIJsonObject>;

/** Why a message (or step) ended, in the protocol's words. */
export type UIFinishReason =
  | 'stop'
  | 'length'
  | 'content-filter'
  | 'tool-calls'
  | 'error'
  | 'interrupted'
  | 'other';

/** What fino puts in a message's `metadata` (under `fino`, leaving the rest to the app). */
export interface FinoMessageMetadata {
  fino: {
    /** The agent or session run the message belongs to. */
    runId?: string;
    /** The session thread, when the run continues one. */
    threadId?: string;
    /** The agent that answered last (after handoffs). */
    agent?: string;
    /** How the run stands when the chunk was sent: `running`, `suspended`, `done`, `error`. */
    status?: string;
    /** Tokens of the run so far. */
    usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
    /** Cost of the run so far, in US dollars, when the model's prices are known. */
    cost?: number;
  };
}

/**
 * The data parts fino sends for what the protocol has no chunk for (each a documented
 * `data-<name>` part; decision 245). `transient` ones reach `useChat`'s `onData` only and
 * are not kept in the message.
 */
export type FinoDataTypes = {
  /** A running tool's `ctx.progress()` (transient). */
  'fino-progress': {
    toolCallId: string;
    toolName: string;
    progress: number;
    total?: number;
    message?: string;
  };
  /** A running tool's `ctx.log()` (transient). */
  'fino-log': {
    toolCallId: string;
    toolName: string;
    level: string;
    message: string;
    data?: UIJsonValue;
  };
  /** A provider warning, the first time the run meets it. */
  'fino-warning': { step: number; warning: UIJsonObject };
  /** What the context step left out of, or cleared in, the request about to be sent. */
  'fino-context': { step: number; report: UIJsonObject };
  /** A guardrail's verdict. */
  'fino-guardrail': {
    name: string;
    kind: string;
    tripped: boolean;
    toolCallId?: string;
  };
  /** The run went on with another agent. */
  'fino-handoff': { from: string; to: string; toolCallId: string };
  /**
   * A tool call suspended with `ctx.suspend({ reason, payload })`: the page answers it by
   * adding the call's output (`addToolOutput`), which resumes the tool with it.
   */
  'fino-suspended': {
    toolCallId: string;
    toolName: string;
    reason?: string;
    payload?: UIJsonValue;
  };
  /** A failure with fino's error code, sent just before the protocol's `error` chunk. */
  'fino-error': { code: string; message: string };
  /** A workflow run's status and what it waits on (`id` = the run id: updated in place). */
  'fino-workflow': {
    runId: string;
    workflowId: string;
    status: string;
    waitingOn?: UIJsonValue;
    output?: UIJsonValue;
    error?: { code?: string; message: string };
    /** For a run that ended `continued` (`ctx.continueAsNew`): the run that continues it. */
    continuedTo?: string;
  };
  /**
   * A decision a workflow run waits for (`id` = the decision id: updated in place once
   * decided). Pending: the call's `kind` (`approval`, `suspend`) and `detail` (`toolCallId`,
   * `args`, `reason`, `payload`, `risk`, `sideEffects`); decided: `decision` (`approve`,
   * `reject`, `resume`), as the run's audit trail has it; `closed`: the run ended
   * without it being decided (cancelled, failed).
   */
  'fino-workflow-decision': {
    runId: string;
    decisionId: string;
    state: 'pending' | 'decided' | 'closed';
    toolName?: string;
    kind?: string;
    detail?: UIJsonValue;
    decision?: string;
  };
  /** A workflow's `ctx.emit(name, value)`. */
  'fino-workflow-event': { runId: string; name: string; value?: UIJsonValue };
  /** A chunk of a workflow's stream `ctx.writeStream(stream, value)`. */
  'fino-workflow-stream': { runId: string; stream: string; offset: number; value: UIJsonValue };
};

/** A `data-*` chunk or part of fino's (see {@link FinoDataTypes}). */
export type FinoDataChunk = {
  [Name in keyof FinoDataTypes]: {
    type: `data-${Name}`;
    id?: string;
    data: FinoDataTypes[Name];
    transient?: boolean;
  };
}[keyof FinoDataTypes];

/** One chunk of a UI message stream, as fino sends it. */
export type UIMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: FinoMessageMetadata }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'reset-step' }
  | {
      type: 'finish';
      finishReason?: UIFinishReason;
      messageMetadata?: FinoMessageMetadata;
    }
  | { type: 'abort'; reason?: string }
  | { type: 'message-metadata'; messageMetadata: FinoMessageMetadata }
  | { type: 'text-start'; id: string; providerMetadata?: UIProviderMetadata }
  | { type: 'text-delta'; id: string; delta: string; providerMetadata?: UIProviderMetadata }
  | { type: 'text-end'; id: string; providerMetadata?: UIProviderMetadata }
  | { type: 'reasoning-start'; id: string; providerMetadata?: UIProviderMetadata }
  | { type: 'reasoning-delta'; id: string; delta: string; providerMetadata?: UIProviderMetadata }
  | { type: 'reasoning-end'; id: string; providerMetadata?: UIProviderMetadata }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string; title?: string }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | {
      type: 'tool-input-available';
      toolCallId: string;
      toolName: string;
      input: unknown;
      title?: string;
      providerMetadata?: UIProviderMetadata;
    }
  | {
      type: 'tool-input-error';
      toolCallId: string;
      toolName: string;
      input: unknown;
      errorText: string;
    }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string; reason?: string }
  | { type: 'tool-approval-response'; approvalId: string; approved: boolean; reason?: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; preliminary?: boolean }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'file'; url: string; mediaType: string; providerMetadata?: UIProviderMetadata }
  | {
      type: 'source-url';
      sourceId: string;
      url: string;
      title?: string;
      providerMetadata?: UIProviderMetadata;
    }
  | { type: 'error'; errorText: string }
  | FinoDataChunk;

/** The approval of a tool part, as the protocol keeps it on the part. */
export interface UIToolApproval {
  id: string;
  approved?: boolean;
  reason?: string;
}

/** The states a tool part goes through, in the protocol's words. */
export type UIToolState =
  | 'input-streaming'
  | 'input-available'
  | 'approval-requested'
  | 'approval-responded'
  | 'output-available'
  | 'output-error'
  | 'output-denied';

/** A tool call in a message: `tool-<name>` parts (and `dynamic-tool` with `toolName`). */
export interface UIToolPart {
  type: `tool-${string}` | 'dynamic-tool';
  toolName?: string;
  toolCallId: string;
  state: UIToolState;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: UIToolApproval;
  title?: string;
  providerExecuted?: boolean;
  callProviderMetadata?: UIProviderMetadata;
  preliminary?: boolean;
}

/** One part of a {@link UIMessage}. */
export type UIMessagePart =
  | {
      type: 'text';
      text: string;
      state?: 'streaming' | 'done';
      providerMetadata?: UIProviderMetadata;
    }
  | {
      type: 'reasoning';
      text: string;
      state?: 'streaming' | 'done';
      providerMetadata?: UIProviderMetadata;
    }
  | {
      type: 'file';
      mediaType: string;
      url: string;
      filename?: string;
      providerMetadata?: UIProviderMetadata;
    }
  | {
      type: 'source-url';
      sourceId: string;
      url: string;
      title?: string;
      providerMetadata?: UIProviderMetadata;
    }
  | {
      type: 'source-document';
      sourceId: string;
      mediaType: string;
      title: string;
      filename?: string;
      providerMetadata?: UIProviderMetadata;
    }
  | { type: 'step-start' }
  | UIToolPart
  | { type: `data-${string}`; id?: string; data: unknown };

/** A chat message as `useChat` keeps and posts it. */
export interface UIMessage {
  id: string;
  role: 'system' | 'user' | 'assistant';
  metadata?: unknown;
  parts: UIMessagePart[];
}
