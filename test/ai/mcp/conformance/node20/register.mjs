// `node --import ./register.mjs …conformance/dist/index.js`: the Node 20 shim (none on Node 22+).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
