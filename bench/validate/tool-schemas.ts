/**
 * Distinct, realistic tool argument schemas for the compile benchmark, each with a valid
 * sample call. `round` makes every batch's property names new, so no validator can serve a
 * batch from a cache.
 */
export interface ToolSchema {
  schema: Record<string, unknown>;
  sample: Record<string, unknown>;
}

const KINDS = [
  [{ type: 'string', minLength: 1 }, 'text'],
  [{ type: 'integer', minimum: 0, maximum: 1000 }, 7],
  [{ type: 'number' }, 1.5],
  [{ type: 'boolean' }, true],
  [{ type: 'string', enum: ['asc', 'desc', 'none'] }, 'desc'],
  [{ type: 'array', items: { type: 'string' }, maxItems: 10 }, ['a', 'b']],
  [
    {
      type: 'object',
      properties: { id: { type: 'string' }, count: { type: 'integer' } },
      required: ['id'],
      additionalProperties: false,
    },
    { id: 'x', count: 2 },
  ],
  [{ type: ['string', 'null'], pattern: '^[a-z]+$' }, null],
] as const;

export function toolSchemas(count: number, round: number): ToolSchema[] {
  return Array.from({ length: count }, (_, tool) => {
    const properties: Record<string, unknown> = {};
    const sample: Record<string, unknown> = {};
    const required: string[] = [];
    const size = 3 + (tool % 4);
    for (let p = 0; p < size; p++) {
      const [schema, value] = KINDS[(tool + p * 3) % KINDS.length];
      const name = `r${round}_t${tool}_p${p}`;
      properties[name] = { ...schema, description: `Parameter ${p} of tool ${tool}` };
      sample[name] = value;
      if (p % 2 === 0) required.push(name);
    }
    return {
      schema: { type: 'object', properties, required, additionalProperties: false },
      sample,
    };
  });
}
