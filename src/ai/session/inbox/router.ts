/**
 * The inbox's routes by method and path: the style sheet and script, the log-in step,
 * then the pages (list, a run, a workflow run, the event stream) and the forms
 * (deciding, logging out). Every refusal becomes a page with its status.
 */
import { SessionError } from '../errors.ts';
import type { Visitor } from './access.ts';
import { INBOX_CSS, INBOX_JS } from './assets.ts';
import type { InboxContext } from './context.ts';
import { eventsResponse } from './events.ts';
import { decodeId, HttpError, REFUSAL_TITLES, respond } from './http.ts';
import { messagePage, type PageContext } from './pages.ts';
import { runListView } from './run-list.ts';
import { decideRun, runView } from './run-routes.ts';
import { decideWorkflow, workflowCode, workflowView } from './workflow-routes.ts';

/** The response to `request`: a page, a form's result, or the page of what went wrong. */
export async function answer(
  inbox: InboxContext,
  request: Request,
  onError: (error: unknown) => void,
): Promise<Response> {
  const { failure } = inbox.access;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failure(400, 'Bad request', 'The request has no valid address.');
  }
  try {
    return await route(inbox, request, url);
  } catch (error) {
    if (error instanceof HttpError) {
      return failure(error.status, REFUSAL_TITLES[error.status] ?? 'Refused', error.message);
    }
    if (
      (error instanceof SessionError && error.code === 'CORRUPT_RUN') ||
      workflowCode(error) === 'CORRUPT_RUN'
    ) {
      return failure(500, 'Unreadable run', (error as Error).message);
    }
    onError(error);
    return failure(
      500,
      'Something went wrong',
      'The inbox could not answer; the server log has the details.',
    );
  }
}

/** The route `url` names under the inbox's base path, for a logged-in request. */
async function route(inbox: InboxContext, request: Request, url: URL): Promise<Response> {
  const { base, access } = inbox;
  if (!url.pathname.startsWith(`${base}/`) && url.pathname !== base) {
    throw new HttpError(404, 'No such page.');
  }
  const path = url.pathname.slice(base.length) || '/';
  const method = request.method;
  if (method === 'GET' && path === '/inbox.css') {
    return respond(INBOX_CSS, { type: 'text/css; charset=utf-8' });
  }
  if (method === 'GET' && path === '/inbox.js') {
    return respond(INBOX_JS, { type: 'text/javascript; charset=utf-8' });
  }
  const visitor = await access.authenticate(request, url);
  if ('stop' in visitor) return visitor.stop;
  if (method === 'GET' || method === 'HEAD') {
    return page(inbox, request, url, path, access.contextOf(visitor));
  }
  if (method === 'POST') return form(inbox, request, url, path, visitor);
  return respond(
    messagePage(
      access.guest,
      'Method not allowed',
      `Expected GET or POST, received ${method.slice(0, 20)}.`,
    ),
    { status: 405, headers: { allow: 'GET, HEAD, POST' } },
  );
}

/** GET and HEAD: the list, its fragment, the event stream, a run's or a workflow run's page. */
function page(
  inbox: InboxContext,
  request: Request,
  url: URL,
  path: string,
  ctx: PageContext,
): Promise<Response> | Response {
  const segments = path.split('/').slice(1);
  if (path === '/') return runListView(inbox, ctx, url, false);
  if (path === '/fragment') return runListView(inbox, ctx, url, true);
  if (path === '/events') return eventsResponse(inbox.watcher, request);
  if (segments.length === 2 && segments[0] === 'runs') {
    return runView(inbox, ctx, decodeId(segments[1], 'run id'));
  }
  if (segments.length === 2 && segments[0] === 'workflows') {
    return workflowView(inbox, ctx, decodeId(segments[1], 'workflow run id'));
  }
  throw new HttpError(404, 'No such page.');
}

/** POST: logging out, or deciding a run's pending call or a workflow run's decision. */
function form(
  inbox: InboxContext,
  request: Request,
  url: URL,
  path: string,
  visitor: Visitor,
): Promise<Response> {
  const [top, runId, kind, id, ...rest] = path.split('/').slice(1);
  if (path === '/logout') return inbox.access.logout(request, url, visitor);
  if (rest.length === 0 && id !== undefined && top === 'runs' && kind === 'calls') {
    const ref = { runId: decodeId(runId, 'run id'), toolCallId: decodeId(id, 'tool call id') };
    return decideRun(inbox, request, url, visitor, ref);
  }
  if (rest.length === 0 && id !== undefined && top === 'workflows' && kind === 'decisions') {
    const ref = {
      runId: decodeId(runId, 'workflow run id'),
      decisionId: decodeId(id, 'decision id'),
    };
    return decideWorkflow(inbox, request, url, visitor, ref);
  }
  throw new HttpError(404, 'No such form.');
}
