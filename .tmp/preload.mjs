import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const pg = require('/work/wt/stores/node_modules/pg');
const Pool = require('/work/wt/stores/node_modules/pg-pool');
const hist = new WeakMap();
const note = (c, what) => { const h = hist.get(c) ?? []; h.push(what + ' listeners=' + c.listenerCount('error') + ' ' + new Error().stack.split('\n').slice(2, 9).join(' | ')); hist.set(c, h.slice(-6)); };
const acq = Pool.prototype._acquireClient;
Pool.prototype._acquireClient = function (client, ...rest) { const r = acq.call(this, client, ...rest); note(client, 'acquired'); return r; };
const rel = Pool.prototype._release;
Pool.prototype._release = function (client, l, err) { note(client, 'release err=' + (err && err.message)); return rel.call(this, client, l, err); };
const emit = pg.Client.prototype.emit;
pg.Client.prototype.emit = function (event, ...args) {
  if (event === 'error' && this.listenerCount('error') === 0) { console.error('NO LISTENER; history:\n' + (hist.get(this) ?? []).join('\n')); }
  return emit.call(this, event, ...args);
};
