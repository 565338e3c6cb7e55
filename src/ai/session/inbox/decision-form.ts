/**
 * What a posted decision form says, the same for a session's pending call and a
 * workflow run's pending decision: the action, who and why, an answer checked against
 * the suspension's schema, and the words that tell the person what happened.
 */
import { compile, formatIssues } from '../../../validate/index.ts';
import type { InboxAccess, Visitor } from './access.ts';
import { HttpError, optionalText } from './http.ts';
import { declaredSchema, type PageContext } from './pages.ts';

/** A decision as posted: what to do, who decides and the note for the audit trail. */
export interface PostedDecision {
  action: 'approve' | 'reject' | 'answer';
  by: string | undefined;
  note: string | undefined;
  /** The reason a rejection gives: the note, else who rejected where. */
  reason: string;
}

/** The form's decision by `by`; a 400 for an action other than approve, reject or answer. */
export function postedDecision(form: URLSearchParams, by: string | undefined): PostedDecision {
  const action = form.get('action');
  if (action !== 'approve' && action !== 'reject' && action !== 'answer') {
    throw new HttpError(
      400,
      `Expected action to be approve, reject or answer, received ${JSON.stringify(action?.slice(0, 40) ?? null)}.`,
    );
  }
  const note = optionalText(form.get('note'))?.slice(0, 2000);
  const reason = note ?? `Rejected${by ? ` by ${by}` : ''} in the approval inbox`;
  return { action, by, note, reason };
}

/**
 * A decision POSTed to the inbox, read the one way for sessions and workflows: the form
 * checked (origin, CSRF value), who decides, and the pages' context for the login.
 */
export async function readDecisionForm(
  access: InboxAccess,
  request: Request,
  url: URL,
  visitor: Visitor,
): Promise<{ ctx: PageContext; form: URLSearchParams; decision: PostedDecision }> {
  const ctx = access.contextOf(visitor);
  const form = await access.checkedForm(request, url, visitor);
  return { ctx, form, decision: postedDecision(form, access.deciderOf(request, form, visitor)) };
}

/** A notice at the top of a page: what just happened, or (`warn`) what did not. */
export type Notice = { text: string; warn?: boolean };

/** The status of a page with `notice`: 409 when it tells of a refused decision. */
export const statusOf = (notice: Notice | undefined) => (notice?.warn ? 409 : 200);

/** What was done, for the notice on the page that follows a decision. */
export const DONE: Readonly<Record<PostedDecision['action'], string>> = {
  approve: 'Approved',
  reject: 'Rejected',
  answer: 'Answered',
};

/** The notice for the loser of a race: who decided, when and how (from the audit trail). */
export function alreadyDecided(
  last: { at: string; action: string; by?: string; note?: string } | undefined,
): string {
  return last
    ? `Already decided ${last.by ? `by ${last.by}` : 'by someone else'} at ${last.at} (${last.action}${last.note ? `: ${last.note}` : ''}). Nothing was changed.`
    : 'Already decided by someone else. Nothing was changed.';
}

/** An answer: JSON checked against the suspension's schema when it declares one, else the text. */
export function parseAnswer(payload: unknown, text: string): unknown {
  const schema = declaredSchema(payload);
  if (schema === undefined) {
    if (text.trim() === '')
      throw new HttpError(400, 'Expected an answer, received an empty field.');
    return text;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(
      400,
      `Expected the answer as JSON (quote strings: "M"), received ${text.slice(0, 200)}`,
    );
  }
  let check: ReturnType<typeof compile>;
  try {
    check = compile(schema);
  } catch {
    return value; // the tool declared a schema we cannot compile: JSON is all we can check
  }
  const result = check.safeParse(value);
  if (!result.success) {
    throw new HttpError(
      400,
      `The answer does not match the schema: ${formatIssues(result.issues)}`,
    );
  }
  return value;
}
