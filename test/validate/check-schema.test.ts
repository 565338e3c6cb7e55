/** `checkSchema`: a schema's own validity, against its metaschema and by compiling it. */
import { describe, expect, it } from 'vitest';
import { checkSchema } from '../../src/validate/index.ts';

const issuesOf = (schema: unknown, options = {}) => {
  const check = checkSchema(schema, options);
  return check.ok ? [] : check.issues.map(({ path, keyword }) => ({ path, keyword }));
};

describe('checkSchema', () => {
  it('accepts valid schemas of both drafts and booleans', () => {
    expect(checkSchema({ type: 'object', properties: { a: { type: 'string' } } })).toEqual({
      ok: true,
    });
    expect(
      checkSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        items: [{ type: 'string' }],
        additionalItems: false,
      }),
    ).toEqual({ ok: true });
    expect(checkSchema(true)).toEqual({ ok: true });
  });

  it('reports metaschema violations at their path in the schema', () => {
    const check = checkSchema({ type: 'object', properties: { age: { type: 'int' } } });
    expect(check.ok).toBe(false);
    expect(check.ok ? [] : check.issues.map((issue) => issue.path)).toContain(
      'properties.age.type',
    );
    expect(issuesOf({ minLength: -1 }).map((issue) => issue.path)).toContain('minLength');
    expect(issuesOf({ pattern: '(' }).map((issue) => issue.path)).toContain('pattern');
    expect(
      issuesOf({ $schema: 'http://json-schema.org/draft-07/schema#', maxItems: 'x' }).map(
        (issue) => issue.path,
      ),
    ).toContain('maxItems');
  });

  it('reports what only compiling finds, such as an unresolvable $ref', () => {
    const check = checkSchema({ properties: { a: { $ref: '#/$defs/missing' } } });
    expect(check).toEqual({
      ok: false,
      issues: [
        {
          path: 'properties.a.$ref',
          message:
            'cannot resolve $ref "#/$defs/missing": nothing at /$defs/missing in fino:/schema.json',
          keyword: 'schema',
        },
      ],
    });
  });

  it('reports a non-schema and an unknown metaschema instead of throwing', () => {
    expect(issuesOf('string')).toEqual([{ path: '', keyword: 'schema' }]);
    expect(issuesOf(null)).toEqual([{ path: '', keyword: 'schema' }]);
    expect(issuesOf({ $schema: 'https://example.com/custom' })).toEqual([
      { path: '$schema', keyword: 'schema' },
    ]);
  });

  it('reads a custom metaschema from the registry', () => {
    const registry = {
      'https://example.com/strict': {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $ref: 'https://json-schema.org/draft/2020-12/schema',
        required: ['title'],
      },
    };
    expect(
      checkSchema({ $schema: 'https://example.com/strict', title: 't' }, { registry }),
    ).toEqual({ ok: true });
    expect(issuesOf({ $schema: 'https://example.com/strict' }, { registry })).toEqual([
      { path: 'title', keyword: 'required' },
    ]);
  });

  it('never throws for a hostile schema', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    expect(checkSchema(hostile).ok).toBe(false);
  });
});
