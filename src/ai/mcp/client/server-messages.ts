/**
 * What an `mcpClient()` answers when the server asks or tells it something: elicitation
 * (an approval it already gave, a followed task's question, or `onElicit`), sampling
 * (`onSample`, within `sampling-requests.ts`'s limits), log messages (`onLog`), resource updates, and progress notifications,
 * routed to the call that sent their token.
 */
import type { Client, ElicitResult } from '@modelcontextprotocol/client';
import { approvalSubject } from '../protocol/index.ts';
import type { ApprovedCalls } from './approved-calls.ts';
import { withDefaults } from './client-catalog.ts';
import type { McpClientOptions } from './client-options.ts';
import { answerSampling, countOpenRequests, type SamplingLimits } from './sampling-requests.ts';
import type { TaskInputs } from './tasks/index.ts';

/** What answering the server needs besides the options' callbacks. */
export interface ServerMessageRoutes {
  /** Calls the caller approved, whose approval requests the client answers itself. */
  approved: ApprovedCalls;
  /** Followed remote tasks waiting for their questions. */
  inputs: TaskInputs;
  /** Tells the catalog that a subscribed resource changed. */
  resourceUpdated(uri: string): void;
  /** The limits on sampling requests. */
  sampling: SamplingLimits;
}

/** Routes a progress token's notifications to one listener until it stops listening. */
export type ListenProgress = (token: string, listener: (params: unknown) => void) => () => void;

/** Sets `sdk`'s request and notification handlers; returns how a call hears its progress. */
export function answerServerMessages(
  sdk: Client,
  options: Pick<McpClientOptions, 'onElicit' | 'onSample' | 'onLog' | 'onRoots'>,
  routes: ServerMessageRoutes,
): ListenProgress {
  const { onElicit, onSample, onLog, onRoots } = options;
  sdk.setRequestHandler('elicitation/create', async (request, ctx): Promise<ElicitResult> => {
    const subject = approvalSubject(request.params);
    if (subject !== undefined && routes.approved.has(subject.tool, subject.arguments)) {
      return { action: 'accept', content: { approve: true } };
    }
    // A followed remote task's question goes to its call, which suspends with it.
    const forTask = routes.inputs.receive(request.params, ctx.mcpReq.signal);
    if (forTask) return forTask;
    return onElicit
      ? withDefaults(request.params, await onElicit(request.params))
      : { action: 'decline' };
  });
  if (onRoots) sdk.setRequestHandler('roots/list', async () => ({ roots: [...(await onRoots())] }));
  if (onSample) answerSampling(sdk, onSample, routes.sampling, countOpenRequests(sdk));
  sdk.setNotificationHandler('notifications/message', (notification) => {
    try {
      onLog?.(notification.params);
    } catch {
      // A listener's failure is not the connection's.
    }
  });
  sdk.setNotificationHandler('notifications/resources/updated', (notification) => {
    routes.resourceUpdated(notification.params.uri);
  });
  // Every call sends its own progress token (a task's stays valid for the task's
  // lifetime); this client sends no other, so every progress notification is routed here.
  const progressListeners = new Map<string, (params: unknown) => void>();
  sdk.setNotificationHandler('notifications/progress', (notification) => {
    progressListeners.get(String(notification.params.progressToken))?.(notification.params);
  });
  return (token, listener) => {
    progressListeners.set(token, listener);
    return () => progressListeners.delete(token);
  };
}
