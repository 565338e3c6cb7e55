import { describe, expect, it } from 'vitest';
import { compile, type Issue } from '../../../src/validate/index.ts';

const unique = compile({ uniqueItems: true });

const issues = (data: unknown): Issue[] => {
  const result = unique.safeParse(data);
  return result.success ? [] : result.issues;
};

describe('uniqueItems', () => {
  it('finds equal objects whatever their key order, and names the first pair', () => {
    expect(
      issues([{ a: 1, b: [1, { c: 2 }] }, { x: 1 }, { b: [1, { c: 2 }], a: 1 }]).map(
        ({ path, keyword, message }) => ({ path, keyword, message }),
      ),
    ).toEqual([
      {
        path: '',
        keyword: 'uniqueItems',
        message: 'expected unique items, items 0 and 2 are equal',
      },
    ]);
    expect(issues([[1], { a: 1 }, [2], { a: 2 }, [2], { a: 1 }])[0]?.message).toBe(
      'expected unique items, items 2 and 4 are equal',
    );
  });

  it('follows JSON Schema equality: -0 equals 0, [1] differs from {"0": 1}, "1" from 1', () => {
    expect(unique.safeParse([{ n: -0 }, { n: 0 }]).success).toBe(false);
    expect(unique.safeParse([[1], { 0: 1 }]).success).toBe(true);
    expect(unique.safeParse([['1'], [1]]).success).toBe(true);
    expect(unique.safeParse([{ a: undefined }, { b: undefined }]).success).toBe(true);
    expect(unique.safeParse([[1.0], [1]]).success).toBe(false);
  });

  it('handles 20,000 distinct objects, and a duplicate at the end of them', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i, tags: ['a', String(i)] }));
    expect(unique.safeParse(items).success).toBe(true);
    const withDuplicate = [...items, { tags: ['a', '7'], id: 7 }];
    expect(issues(withDuplicate)[0]?.message).toBe(
      'expected unique items, items 7 and 20000 are equal',
    );
  });
});
