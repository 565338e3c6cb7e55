/**
 * Hostile instances against fino:validate: values whose reading throws (getters, Proxy
 * traps, revoked Proxies) and values that would bloat a message. `safeParse` returns a
 * failure, `parse` throws a ValidationError, and every message stays short.
 */
import { describe, expect, it } from 'vitest';
import {
  checkSchema,
  compile,
  type Issue,
  parse,
  safeParse,
  ValidationError,
  v,
} from '../../src/validate/index.ts';

const throwingGetter = (key: string, error: unknown = new TypeError('no access')) =>
  Object.defineProperty({}, key, {
    enumerable: true,
    get() {
      throw error;
    },
  });

const revoked = (target: object) => {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
};

const trapping = (target: object) =>
  new Proxy(target, {
    get() {
      throw new Error('get trap');
    },
    ownKeys() {
      throw new Error('ownKeys trap');
    },
  });

function issuesOf(result: ReturnType<typeof safeParse>): Issue[] {
  if (result.success) throw new Error('expected a failure');
  return result.issues;
}

const objectSchema = {
  type: 'object',
  properties: { user: { type: 'object', properties: { name: { type: 'string' } } } },
};

describe('safeParse on values whose reading throws (issue 9.10)', () => {
  it('returns a read issue at the property whose getter throws', () => {
    const issues = issuesOf(safeParse(objectSchema, { user: throwingGetter('name') }));
    expect(issues).toEqual([
      {
        path: 'user.name',
        message: 'could not read the value at this path: TypeError: no access',
        keyword: 'read',
      },
    ]);
  });

  it('names an array index whose getter throws', () => {
    const array = [1, 2];
    Object.defineProperty(array, 1, {
      enumerable: true,
      get() {
        throw new RangeError('index');
      },
    });
    const schema = { properties: { list: { items: { type: 'number' } } } };
    expect(issuesOf(safeParse(schema, { list: array }))).toEqual([
      {
        path: 'list[1]',
        message: 'could not read the value at this path: RangeError: index',
        keyword: 'read',
      },
    ]);
  });

  it('returns a read issue for revoked and trapping Proxies, at the root and nested', () => {
    const readIssue = (schema: object, data: unknown) =>
      issuesOf(safeParse(schema, data)).map(({ path, keyword }) => ({ path, keyword }));
    expect(readIssue(objectSchema, revoked({}))).toEqual([{ path: '', keyword: 'read' }]);
    expect(readIssue(objectSchema, { user: revoked({}) })).toEqual([
      { path: 'user', keyword: 'read' },
    ]);
    expect(readIssue({ type: 'array', items: { type: 'object' } }, [{}, revoked([])])).toEqual([
      { path: '[1]', keyword: 'read' },
    ]);
    expect(readIssue({ additionalProperties: false }, trapping({}))).toEqual([
      { path: '', keyword: 'read' },
    ]);
    expect(readIssue({ items: { type: 'string' } }, trapping([]))).toEqual([
      { path: '', keyword: 'read' },
    ]);
  });

  it('never throws for any hostile value under common schemas', () => {
    const schemas: object[] = [
      objectSchema,
      { type: 'array', items: { type: 'object' } },
      { required: ['a'] },
      { additionalProperties: false },
      { minProperties: 1 },
      { uniqueItems: true },
      { const: { a: 1 } },
      { enum: [[1], { a: 1 }] },
      { anyOf: [{ type: 'string' }, { properties: { a: { type: 'number' } } }] },
      { unevaluatedProperties: false, properties: { a: true } },
    ];
    for (const hostile of [revoked({}), revoked([]), trapping({}), trapping([])]) {
      for (const schema of schemas) {
        for (const data of [hostile, { a: hostile }, [hostile]]) {
          const result = safeParse(schema, data);
          if (!result.success)
            for (const issue of result.issues) expect(issue.message.length).toBeLessThan(200);
        }
      }
    }
  });

  it('describes a thrown non-Error and a hostile error without throwing again', () => {
    const hostileError = new Proxy(new Error('x'), {
      get() {
        throw new Error('again');
      },
      getPrototypeOf() {
        throw new Error('again');
      },
    });
    const hostileRangeError = new Proxy(new RangeError('x'), {
      get() {
        throw new Error('again');
      },
    });
    const thrownValues = [
      'text',
      42,
      null,
      hostileError,
      hostileRangeError,
      new Error('m'.repeat(100_000)),
    ];
    for (const thrown of thrownValues) {
      const issues = issuesOf(safeParse(objectSchema, { user: throwingGetter('name', thrown) }));
      expect(issues[0].keyword).toBe('read');
      expect(issues[0].message.length).toBeLessThan(140);
    }
  });

  it('makes parse throw a ValidationError, not the raw error', () => {
    expect(() => parse(objectSchema, { user: throwingGetter('name') })).toThrow(ValidationError);
    expect(() => compile({ type: 'array' }).parse(revoked([]))).toThrow(ValidationError);
  });

  it('covers the v builders and their Standard Schema validate', () => {
    const schema = v.object({ name: v.string() });
    const hostile = throwingGetter('name');
    expect(issuesOf(compile(schema).safeParse(hostile))[0].keyword).toBe('read');
    expect(() => compile(schema).parse(hostile)).toThrow(ValidationError);
    const result = schema['~standard'].validate(hostile);
    expect('issues' in result && result.issues?.[0].message).toMatch(/could not read the value/);
  });

  it('fails when applying defaults reads a getter that throws only the second time', () => {
    let reads = 0;
    const flaky = Object.defineProperty({}, 'a', {
      enumerable: true,
      get() {
        reads++;
        if (reads > 1) throw new Error('second read');
        return 'x';
      },
    });
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number', default: 1 } },
    };
    expect(issuesOf(safeParse(schema, flaky))[0].keyword).toBe('read');
  });

  it('still rethrows what a refinement throws (a bug in the refinement, not bad data)', () => {
    const bug = new Error('refinement bug');
    const schema = v.string().refine(() => {
      throw bug;
    });
    expect(() => compile(schema).safeParse('a')).toThrow(bug);
  });
});

describe('messages about hostile values stay short', () => {
  it('excerpts a huge string and a value with a throwing toJSON', () => {
    const issues = issuesOf(safeParse({ type: 'number' }, 'x'.repeat(5_000_000)));
    expect(issues[0].message.length).toBeLessThan(120);
    const withToJSON = {
      toJSON() {
        throw new Error('toJSON');
      },
    };
    expect(issuesOf(safeParse({ const: 1 }, [withToJSON]))[0].message).toBe(
      'expected 1, received array',
    );
    expect(issuesOf(safeParse({ enum: [1] }, Number.NaN))[0].message).toBe(
      'expected one of 1, received number NaN',
    );
  });
});

describe('checkSchema on hostile schemas', () => {
  it('answers for a schema nested 100k levels deep and for a cyclic one', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) deep = { not: deep };
    expect(checkSchema(deep).ok).toBe(false);
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(checkSchema(cyclic).ok).toBe(false);
  });

  it('keeps issues short for a huge invalid keyword value', () => {
    const check = checkSchema({ type: 'x'.repeat(1_000_000) });
    expect(check.ok).toBe(false);
    for (const issue of check.ok ? [] : check.issues)
      expect(issue.message.length).toBeLessThan(300);
  });
});

describe('compile options from a hostile caller', () => {
  it('describe a bad maxDepth or draft without calling its toString', () => {
    const hostile = {
      toString() {
        throw new Error('toString ran');
      },
    };
    expect(() => compile({}, { maxDepth: hostile as never })).toThrow(
      'compile: options.maxDepth: expected a positive integer, received object',
    );
    expect(() => compile({}, { draft: hostile as never })).toThrow(
      'compile: options.draft: expected "2020-12" or "draft-07", received object',
    );
    expect(() => compile({}, { maxDepth: Number.NaN })).toThrow('received number NaN');
  });
});
