/**
 * Who is chatting, for the example: the user a trusted login in front of the app would
 * name. Here a cookie (`fino_demo_user`) or a header (`x-demo-user`) says it, else the
 * user is `demo-user`. chatHandler records it as `by` in the audit trail of every
 * approval; the page never sends it. Replace it with your app's real sign-in.
 */

/** The user when nobody says otherwise. */
export const DEMO_USER = 'demo-user';

const NAME = /^[\w.@-]{1,64}$/;

/** The value of cookie `name` in a `Cookie` header. */
function cookie(header: string | null, name: string): string | undefined {
  for (const pair of header?.split(';') ?? []) {
    const [key, ...value] = pair.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return ''; // malformed percent-encoding: not a name
    }
  }
  return undefined;
}

/** chatHandler's `auth`: the named user, `undefined` (401) for a malformed name. */
export async function demoAuth(request: Request): Promise<{ by: string } | undefined> {
  const named =
    request.headers.get('x-demo-user') ??
    cookie(request.headers.get('cookie'), 'fino_demo_user') ??
    DEMO_USER;
  return NAME.test(named) ? { by: named } : undefined;
}
