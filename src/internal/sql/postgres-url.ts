/**
 * Reading a libpq connection URL that names several servers — in its host part
 * (`postgresql://h1:5432,h2:5433/db`) or in `host` and `port` parameters
 * (`?host=h1,h2&port=5432,5433`) — and its `target_session_attrs`, which the `pg` driver
 * understands neither of. Such a URL becomes one single-server URL per server, in order,
 * for `pg`; any other URL is left to `pg` as it is. Decision 173.
 */

/** What a store accepts as `target_session_attrs`: the values that let it write, as libpq defines them. */
export type TargetSessionAttrs = 'any' | 'read-write' | 'primary';

/** A URL that names several servers or a `target_session_attrs`: where and what to connect to. */
export interface MultiHostTarget {
  /** One URL per server, in the order given: the server, the same user, database and parameters. */
  servers: { label: string; url: string }[];
  target: TargetSessionAttrs;
}

const ACCEPTED: readonly string[] = ['any', 'read-write', 'primary'];
/** libpq's values that pick a server a store cannot write to. */
const READ_ONLY: readonly string[] = ['read-only', 'standby', 'prefer-standby'];

/** scheme, user info, host list, path, query (the fragment is dropped). */
const URL_SHAPE = /^(postgres(?:ql)?:\/\/)(?:([^/?#]*)@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?/i;

/**
 * The servers and target of `url` when it names several servers or a
 * `target_session_attrs`; `undefined` for any other URL (one server: `pg` reads it).
 * Throws an `Error` saying what is wrong and what is expected for a list it cannot use.
 */
export function multiHostTarget(url: string): MultiHostTarget | undefined {
  const shape = URL_SHAPE.exec(url);
  if (!shape) return undefined;
  const [, scheme, userInfo, authority = '', path = '', query = ''] = shape;
  const params = new URLSearchParams(query);
  const hostParam = params.get('host');
  const hosts = hostParam === null ? authorityHosts(authority) : listHosts(hostParam);
  const portParam = params.get('port');
  const ports = portParam === null ? hosts.map((h) => h.port) : portList(portParam, hosts.length);
  const attrs = params.get('target_session_attrs');
  if (hosts.length < 2 && attrs === null) return undefined;
  const target = targetOf(attrs);
  for (const name of ['host', 'port', 'target_session_attrs']) params.delete(name);
  const rest = params.size > 0 ? `?${params}` : '';
  const user = userInfo === undefined ? '' : `${userInfo}@`;
  const servers = hosts.map(({ host }, i) => {
    if (host.startsWith('/')) {
      throw new Error(
        `a Unix socket directory (${host}) cannot be one of several servers: list TCP addresses (host:port), or give one server`,
      );
    }
    const label = `${host}${ports[i] ? `:${ports[i]}` : ''}`;
    return { label, url: `${scheme}${user}${label}${path}${rest}` };
  });
  return { servers, target };
}

/** The `host[:port]` entries of a URL's host part; an IPv6 address is in brackets. */
function authorityHosts(authority: string): { host: string; port: string }[] {
  return authority.split(',').map((entry) => {
    const match = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(entry);
    const [, host = '', port = ''] = match ?? [];
    return { host, port: checkPort(port) };
  });
}

/** The hosts of a `host` parameter (an IPv6 address without brackets gets them). */
const listHosts = (list: string) =>
  list.split(',').map((host) => ({ host: host.includes(':') ? `[${host}]` : host, port: '' }));

/** A `port` parameter: one port for every host, or one per host (libpq's rule). */
function portList(list: string, hosts: number): string[] {
  const ports = list.split(',').map(checkPort);
  if (ports.length === 1) return Array(hosts).fill(ports[0]);
  if (ports.length !== hosts) {
    throw new Error(
      `port lists ${ports.length} ports for ${hosts} hosts: give one port for all of them, or one per host`,
    );
  }
  return ports;
}

/** `port` when it is empty (the default, 5432) or a port number. */
function checkPort(port: string): string {
  if (port === '' || (/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) {
    return port;
  }
  throw new Error(`expected a port number from 1 to 65535, received ${JSON.stringify(port)}`);
}

function targetOf(attrs: string | null): TargetSessionAttrs {
  if (attrs === null || ACCEPTED.includes(attrs)) return (attrs ?? 'any') as TargetSessionAttrs;
  if (READ_ONLY.includes(attrs)) {
    throw new Error(
      `target_session_attrs=${attrs} picks a server the store cannot write to, and a store writes: use read-write (or primary, or any)`,
    );
  }
  throw new Error(
    `target_session_attrs: expected one of ${ACCEPTED.join(', ')}, received ${JSON.stringify(attrs)}`,
  );
}
