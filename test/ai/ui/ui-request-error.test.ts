/** UIRequestError carries the status of its code and answers with it as JSON. */
import { describe, expect, it } from 'vitest';
import { UIRequestError } from '../../../src/ai/ui/index.ts';

describe('UIRequestError', () => {
  it.each([
    ['INVALID_JSON', 400],
    ['INVALID_REQUEST', 400],
    ['INVALID_MESSAGES', 400],
    ['TOO_LARGE', 413],
    ['UNSUPPORTED_MEDIA_TYPE', 415],
  ] as const)('%s is sent with %i as { error: { code, message } }', async (code, status) => {
    const error = new UIRequestError(code, 'what was wrong, and what was expected');
    expect([error.status, error.code, error.name]).toEqual([status, code, 'UIRequestError']);
    const response = error.toResponse();
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      error: { code, message: 'what was wrong, and what was expected' },
    });
  });
});
