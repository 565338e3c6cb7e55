/** `$dynamicRef` targets compile with the schema: their errors surface at `compile()` (issue 9.17). */
import { describe, expect, it } from 'vitest';
import { compile, SchemaError } from '../../../src/validate/index.ts';

/** A root whose `$dynamicAnchor` "elem" is reached only through the `$dynamicRef` of a nested resource. */
const withRootElem = (elem: object) => ({
  $id: 'https://example.com/root',
  $ref: 'list',
  $defs: {
    elem: { $dynamicAnchor: 'elem', ...elem },
    list: {
      $id: 'list',
      type: 'array',
      items: { $dynamicRef: '#elem' },
      $defs: { elem: { $dynamicAnchor: 'elem' } },
    },
  },
});

describe('$dynamicRef targets', () => {
  it('reports an invalid keyword of a dynamic target at compile()', () => {
    expect(() => compile(withRootElem({ minLength: -1 }))).toThrow(SchemaError);
    expect(() => compile(withRootElem({ minLength: -1 }))).toThrow(
      '#/$defs/elem/minLength: expected a non-negative integer, received number -1',
    );
  });

  it('reports an unresolvable $ref of a dynamic target at compile()', () => {
    expect(() => compile(withRootElem({ $ref: 'missing.json' }))).toThrow(
      /cannot resolve \$ref "missing.json"/,
    );
  });

  it('still resolves to the outermost dynamic anchor', () => {
    const validator = compile(withRootElem({ type: 'string' }));
    expect(validator.safeParse(['a']).success).toBe(true);
    expect(validator.safeParse([1]).success).toBe(false);
  });
});
