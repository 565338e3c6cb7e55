import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileTokenStore, memoryTokenStore, oauth } from '../../../../src/ai/mcp/index.ts';
import { tempDir } from '../../../helpers/temp-dir.ts';

const dir = tempDir('oauth');
const record = { tokens: { access_token: 'secret', token_type: 'Bearer' } };

describe('token stores', () => {
  it('keeps records per server in a file only its owner can read', async () => {
    const path = join(dir, 'nested', 'tokens.json');
    const store = fileTokenStore(path);
    expect(await store.load('https://a/mcp')).toBeUndefined();
    await Promise.all([
      store.save('https://a/mcp', record),
      store.save('https://b/mcp', { client: { client_id: 'b' } }),
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = fileTokenStore(path);
    expect(await again.load('https://a/mcp')).toEqual(record);
    expect(await again.load('https://b/mcp')).toEqual({ client: { client_id: 'b' } });
    expect(await again.load('__proto__')).toBeUndefined();
  });

  it('names a file that holds something else', async () => {
    const path = join(dir, 'tokens.json');
    writeFileSync(path, '[1]');
    await expect(fileTokenStore(path).load('x')).rejects.toThrow(
      `fileTokenStore: ${path} does not hold a JSON object`,
    );
  });

  it('keeps records in memory', async () => {
    const store = memoryTokenStore();
    await store.save('s', record);
    expect(await store.load('s')).toEqual(record);
  });

  it('checks oauth() options', () => {
    expect(() => oauth({ grant: 'client_credentials', clientId: 'x' })).toThrow(
      "oauth: grant 'client_credentials' needs clientId, and clientSecret or privateKey",
    );
    expect(() => oauth({ authorize: 'yes' as never })).toThrow(
      'oauth: authorize: expected a function, received string "yes"',
    );
  });
});
