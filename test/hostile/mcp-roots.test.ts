/**
 * Attack corpus for `ctx.listRoots()`: a client that answers `roots/list` with garbage,
 * with URIs that are not `file://`, or with more than `MAX_ROOTS` roots, on 2026-07-28
 * (input responses) and on a 2025-era connection (a `roots/list` request). Each makes
 * that `ctx.listRoots()` reject with what was wrong, once; the server keeps serving.
 * Decision 208.
 */
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, mcpClient } from '../../src/ai/mcp/index.ts';
import { MAX_ROOTS } from '../../src/ai/mcp/server/server-roots.ts';
import { modernRequest, RAW_CAPABILITIES } from '../ai/mcp/fixtures/modern-http.ts';
import { rootsServer } from '../ai/mcp/fixtures/roots-server.ts';

/** The text of the first content block, when there is one. */
const textOf = (content: unknown): string | undefined =>
  (content as { text?: string }[] | undefined)?.[0]?.text;

const tooMany = Array.from({ length: MAX_ROOTS + 1 }, (_, i) => ({ uri: `file:///r/${i}` }));
const WITH_ROOTS = { ...RAW_CAPABILITIES, roots: {} };

describe('a hostile client answering roots/list', () => {
  let http: McpHttpServer;
  beforeAll(async () => {
    http = await rootsServer().listen({ port: 0 });
  });
  afterAll(() => http.close());

  const answer = async (roots: unknown) => {
    const first = await modernRequest(
      http.url,
      'tools/call',
      { name: 'where', arguments: {} },
      WITH_ROOTS,
    );
    expect(first.result.inputRequests).toEqual({ roots: { method: 'roots/list' } });
    const done = await modernRequest(
      http.url,
      'tools/call',
      {
        name: 'where',
        arguments: {},
        inputResponses: { roots },
        requestState: first.result.requestState,
      },
      WITH_ROOTS,
    );
    expect(done.result.isError, JSON.stringify(roots).slice(0, 80)).toBe(true);
    return done.result.content[0].text as string;
  };

  it('refuses garbage, non-file URIs and too many roots on 2026-07-28, naming what was wrong', async () => {
    expect(await answer({ roots: 'all of them' })).toContain(
      `ctx.listRoots: the client's answer "roots" is not a roots list ({ roots: [{ uri, name? }] })`,
    );
    expect(await answer({ roots: [{ name: 'no uri' }] })).toContain('is not a roots list');
    expect(await answer({ roots: [{ uri: 'https://evil.example/' }] })).toContain(
      'is not a roots list',
    );
    expect(await answer({ roots: tooMany })).toContain(
      `ctx.listRoots: the client listed ${MAX_ROOTS + 1} roots; at most ${MAX_ROOTS} are accepted`,
    );
    const fine = await modernRequest(http.url, 'tools/list', {}, WITH_ROOTS);
    expect(fine.result.tools.map((t: { name: string }) => t.name)).toEqual(['where']);
  });

  it('refuses the same on a 2025-era connection', async () => {
    const texts: string[] = [];
    for (const roots of [tooMany, [{ uri: 'ftp://x' }], 'garbage']) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await rootsServer().connect(serverSide);
      const client = mcpClient({ transport: clientSide, onRoots: () => roots as never });
      await client.connect();
      const where = (await client.tools()).find((found) => found.name === 'where');
      const result = await where?.invoke({}, { signal: AbortSignal.timeout(10_000) } as never);
      expect(result?.isError).toBe(true);
      texts.push(textOf(result?.content) ?? '');
      await client.close();
    }
    expect(texts[0]).toContain(`at most ${MAX_ROOTS} are accepted`);
    // The SDK checks a 2025-era answer against the spec's schema before fino sees it.
    expect(texts[1]).toContain('Invalid result for roots/list');
    expect(texts[1]).toContain('must start with \\"file://\\"');
    expect(texts[2]).toContain('Invalid result for roots/list');
  });
});
