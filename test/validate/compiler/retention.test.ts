import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CompileContext, type SchemaNode } from '../../../src/validate/compiler/context.ts';
import { newState, type Validate } from '../../../src/validate/compiler/state.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Compiles `schema`; returns its closure and a weak reference to the compilation. */
function compileAlone(schema: SchemaNode): { validate: Validate; compilation: WeakRef<object> } {
  const ctx = new CompileContext({
    formats: false,
    registry: {},
    refinements: undefined,
    draft: 2020,
  });
  const validate = ctx.validatorFor(schema, ctx.addRoot(schema));
  return { validate, compilation: new WeakRef(ctx) };
}

describe('what a compiled validator keeps', () => {
  it('keeps its closures, not the compilation that made them', async () => {
    const schemas: SchemaNode[] = [
      {
        type: 'object',
        properties: { path: { type: 'string' }, lines: { type: 'integer', minimum: 1 } },
        required: ['path'],
        additionalProperties: false,
      },
      { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' }, minItems: 1 },
      { type: ['object', 'null'], properties: { tags: { type: 'array', items: { enum: ['a'] } } } },
      { anyOf: [{ type: 'string' }, { type: 'number' }], not: { const: 3 } },
    ];
    for (const schema of schemas) {
      const { validate, compilation } = compileAlone(schema);
      // A weak reference holds its target until the current job ends.
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      expect({ schema, kept: compilation.deref() !== undefined }).toEqual({ schema, kept: false });
      expect(typeof validate(null, newState(10, null))).toBe('boolean');
    }
  });
});
