/**
 * Canonical JSON (decision 067): one text per value, stable across versions because agent
 * argument hashes and MCP fingerprints built from it are stored.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsHash } from '../../src/ai/agent/args-hash.ts';
import { fingerprint } from '../../src/ai/mcp/client/fingerprint.ts';
import { canonicalJson } from '../../src/internal/canonical-json.ts';
import { sha256Hex } from '../../src/internal/sha256.ts';

/**
 * JSON.stringify with object keys sorted at every level: the rule for JSON data, written
 * the plain recursive way (an object cannot hold the sorted order: integer-like keys come first).
 */
function sortedStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedStringify).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${sortedStringify(record[key])}`);
  return `{${members.join(',')}}`;
}

describe('canonicalJson', () => {
  it('writes JSON data as JSON.stringify does, keys sorted at every level', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(sortedStringify(value));
      }),
    );
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 0 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[1,{"y":0,"z":0}]},"b":1}',
    );
  });

  it('sorts keys by UTF-16 code unit, integer-like keys included', () => {
    expect(canonicalJson({ 9: 1, 10: 2, é: 3, Z: 4, _: 5, a: 6 })).toBe(
      '{"10":2,"9":1,"Z":4,"_":5,"a":6,"é":3}',
    );
  });

  it('treats undefined, functions and symbols as JSON.stringify does', () => {
    const f = () => 1;
    const value = { a: undefined, b: f, c: Symbol('s'), d: [undefined, f, Symbol('t')] };
    expect(canonicalJson(value)).toBe('{"d":[null,null,null]}');
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
    expect(canonicalJson(undefined)).toBeUndefined();
    expect(canonicalJson(f)).toBeUndefined();
    expect(canonicalJson([Number.NaN, -0, Number.POSITIVE_INFINITY])).toBe('[null,0,null]');
  });

  it('reads any other object as its own enumerable keys and never calls toJSON', () => {
    const toJSON = () => {
      throw new Error('toJSON ran');
    };
    expect(canonicalJson({ a: 1, toJSON })).toBe('{"a":1}');
    expect(canonicalJson(new Date(0))).toBe('{}');
    expect(canonicalJson(new Map([['a', 1]]))).toBe('{}');
  });

  it('writes a shared object each time it appears', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: [shared, shared] })).toBe(
      '{"a":{"x":1},"b":[{"x":1},{"x":1}]}',
    );
  });
});

describe('sha256Hex', () => {
  it('is the SHA-256 of the UTF-8 text, as hex', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('stored hashes stay valid', () => {
  // Hex digests written by the version before the shared canonical JSON (commit 6c91765):
  // pending calls in stored run states and pinned MCP fingerprints carry them.
  const stored: Array<[unknown, string]> = [
    [undefined, 'eb045d78d273107348b0300c01d29b7552d622abbc6faf81b3ec55359aa9950c'],
    [null, '74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b'],
    [{}, '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'],
    [[], '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945'],
    ['x', 'ba2df4903a2c14e86dc3bcca58911b44ac1d2514b7227bf6eb08cfb978f55a1b'],
    [-0, '5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9'],
    [1e21, '241c4643fa70b1dcde1205b71be4e3bebb17e9f880c8e1a33d0ead6c27271d3c'],
    [0.1, '14be4b45f18e0d8c67b4f719b5144eee88497e413709d11d85b096d8e2346310'],
    [true, 'b5bea41b6c623f7c09f1bf24dcae58ebab3c0cdd90ad966bc43a45b44867e12b'],
    [
      { path: '/tmp/a.txt', mode: 'w', lines: [1, 2.5, -3, null, 'é', '😀'] },
      'f45bea96680daa18e46dadf81fb664e43221ccdae5bd515ca437bbe1ee24950b',
    ],
    [
      {
        b: { d: [1, { z: 1, a: 2 }], c: undefined },
        a: [undefined, null],
        é: 1,
        Z: 2,
        _: 3,
        10: 4,
        9: 5,
      },
      '7640357a4017d5683e8b852044586602fd1d736fedb0cab913b5c560db9008d1',
    ],
  ];

  it.each(stored)('argsHash(%j) is the hash an older version stored', (args, hex) => {
    expect(argsHash(args)).toBe(hex);
  });

  it('a tool fingerprint is the one an older version pinned', () => {
    const tool = {
      name: 'read',
      title: 'Read',
      description: 'Read a file.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
      },
      annotations: { readOnlyHint: true },
      outputSchema: undefined,
    };
    expect(fingerprint(tool)).toBe(
      'da5117a79bb96b78860118fa6a21e966b3dcc0dde9813614d0a325e72ce721f3',
    );
  });
});
