import { describe, expect, it } from 'vitest';
import { formatPath } from '../../../src/validate/compiler/path.ts';
import { parsePath } from '../../../src/validate/standard/parse-path.ts';

describe('parsePath', () => {
  it.each([
    ['', []],
    ['a', ['a']],
    ['items[1].name', ['items', 1, 'name']],
    ['[0][2]', [0, 2]],
    ['headers["content-type"]', ['headers', 'content-type']],
    ['["a.b"][0]', ['a.b', 0]],
    ['["say \\"hi\\" ]["]', ['say "hi" ][']],
    ['a["0"]', ['a', '0']],
  ])('reads %s', (path, segments) => {
    expect(parsePath(path)).toEqual(segments);
  });

  it('reads back whatever the compiler formats', () => {
    const samples: (string | number)[][] = [
      ['a', 0, 'b c', '', '[', ']', '"', '.', '\\', 'ü', '__proto__', 12, '12'],
    ];
    for (const segments of samples) expect(parsePath(formatPath(segments))).toEqual(segments);
  });
});
