/**
 * `fino:validate` against Ajv 8 (2020 build, compiled), @cfworker/json-schema (the other
 * no-eval validator), Zod 4 and Valibot, on four jobs: (a) a small tool argument object,
 * (b) a nested object with arrays, enums and formats (formats on, then off as (b′)), (c) invalid input with three errors,
 * all collected, (d) compiling 200 distinct tool schemas. Run: `npx tsx bench/run.ts validate`.
 * The real-world tool schemas, timed in batches, are in ./real-world-bench.ts.
 */
import { Validator } from '@cfworker/json-schema';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as valibot from 'valibot';
import { z } from 'zod';
import { compile, v } from '../../src/validate/index.ts';
import { compare } from '../harness.ts';
import { toolSchemas } from './tool-schemas.ts';

/** Fails loudly if a peer's verdict is not the expected one, so no peer is timed on a no-op. */
function check(name: string, verdict: boolean, expected: boolean): void {
  if (verdict !== expected)
    throw new Error(`bench validate: ${name} said ${verdict}, expected ${expected}`);
}

const newAjv = (allErrors: boolean) => {
  const ajv = new Ajv2020({ allErrors, strict: false });
  addFormats.default(ajv);
  return ajv;
};

// (a) a small tool argument object
{
  const fino = v.object({
    city: v.string().min(1),
    unit: v.enum(['celsius', 'fahrenheit']),
    days: v.integer().min(1).max(7).optional(),
  });
  const schema = fino.toJSON();
  const data = { city: 'Lisbon', unit: 'celsius', days: 3 };
  const finoValidator = compile(fino);
  const ajv = newAjv(false).compile(schema);
  const cfworker = new Validator(schema as never, '2020-12');
  const zod = z.object({
    city: z.string().min(1),
    unit: z.enum(['celsius', 'fahrenheit']),
    days: z.int().min(1).max(7).optional(),
  });
  const vali = valibot.object({
    city: valibot.pipe(valibot.string(), valibot.minLength(1)),
    unit: valibot.picklist(['celsius', 'fahrenheit']),
    days: valibot.optional(
      valibot.pipe(valibot.number(), valibot.integer(), valibot.minValue(1), valibot.maxValue(7)),
    ),
  });
  const peers = {
    ajv: () => ajv(data),
    fino: () => finoValidator.safeParse(data).success,
    cfworker: () => cfworker.validate(data).valid,
    zod: () => zod.safeParse(data).success,
    valibot: () => valibot.safeParse(vali, data).success,
  };
  for (const [name, run] of Object.entries(peers)) check(name, run(), true);
  await compare('(a) small tool arguments, valid', peers, { baseline: 'ajv' });
}

// (b) a nested object with arrays, enums and formats (formats asserted by every peer)
const order = v.object({
  id: v.string().format('uuid'),
  customer: v.object({
    email: v.string().format('email'),
    name: v.string().min(1).max(100),
    tier: v.enum(['free', 'pro', 'enterprise']),
  }),
  items: v
    .array(
      v.object({
        sku: v.string().pattern('^[A-Z]{3}-[0-9]+$'),
        qty: v.integer().min(1),
        price: v.number().min(0),
        tags: v.array(v.string()).max(5).optional(),
      }),
    )
    .min(1),
  status: v.enum(['pending', 'paid', 'shipped']),
  placedAt: v.string().format('date-time'),
  notes: v.string().nullable().optional(),
});
const orderZod = z.object({
  id: z.uuid(),
  customer: z.object({
    email: z.email(),
    name: z.string().min(1).max(100),
    tier: z.enum(['free', 'pro', 'enterprise']),
  }),
  items: z
    .array(
      z.object({
        sku: z.string().regex(/^[A-Z]{3}-[0-9]+$/),
        qty: z.int().min(1),
        price: z.number().min(0),
        tags: z.array(z.string()).max(5).optional(),
      }),
    )
    .min(1),
  status: z.enum(['pending', 'paid', 'shipped']),
  placedAt: z.iso.datetime({ offset: true }),
  notes: z.string().nullable().optional(),
});
const orderValibot = valibot.object({
  id: valibot.pipe(valibot.string(), valibot.uuid()),
  customer: valibot.object({
    email: valibot.pipe(valibot.string(), valibot.email()),
    name: valibot.pipe(valibot.string(), valibot.minLength(1), valibot.maxLength(100)),
    tier: valibot.picklist(['free', 'pro', 'enterprise']),
  }),
  items: valibot.pipe(
    valibot.array(
      valibot.object({
        sku: valibot.pipe(valibot.string(), valibot.regex(/^[A-Z]{3}-[0-9]+$/)),
        qty: valibot.pipe(valibot.number(), valibot.integer(), valibot.minValue(1)),
        price: valibot.pipe(valibot.number(), valibot.minValue(0)),
        tags: valibot.optional(valibot.pipe(valibot.array(valibot.string()), valibot.maxLength(5))),
      }),
    ),
    valibot.minLength(1),
  ),
  status: valibot.picklist(['pending', 'paid', 'shipped']),
  placedAt: valibot.pipe(valibot.string(), valibot.isoTimestamp()),
  notes: valibot.optional(valibot.nullable(valibot.string())),
});
const validOrder = {
  id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  customer: { email: 'ana@example.com', name: 'Ana', tier: 'pro' },
  items: [
    { sku: 'ABC-1', qty: 2, price: 9.5, tags: ['gift'] },
    { sku: 'XYZ-42', qty: 1, price: 120 },
    { sku: 'QRS-7', qty: 3, price: 0.99, tags: ['a', 'b'] },
  ],
  status: 'paid',
  placedAt: '2026-03-01T10:15:00Z',
  notes: null,
};

{
  const schema = order.toJSON();
  const finoValidator = compile(order, { formats: true });
  const ajv = newAjv(false).compile(schema);
  const cfworker = new Validator(schema as never, '2020-12');
  const peers = {
    ajv: () => ajv(validOrder),
    fino: () => finoValidator.safeParse(validOrder).success,
    cfworker: () => cfworker.validate(validOrder).valid,
    zod: () => orderZod.safeParse(validOrder).success,
    valibot: () => valibot.safeParse(orderValibot, validOrder).success,
  };
  for (const [name, run] of Object.entries(peers)) check(name, run(), true);
  await compare('(b) nested object with arrays, enums and formats, valid (formats on)', peers, {
    baseline: 'ajv',
  });
}

// (b′) the same, formats off (fino's default for tools; a format check costs both alike)
{
  const schema = order.toJSON();
  const finoValidator = compile(order);
  const ajv = new Ajv2020({ strict: false, validateFormats: false }).compile(schema);
  const peers = {
    ajv: () => ajv(validOrder),
    fino: () => finoValidator.safeParse(validOrder).success,
    'fino is': () => finoValidator.is(validOrder),
  };
  for (const [name, run] of Object.entries(peers)) check(name, run(), true);
  await compare('(b′) nested object with arrays and enums, valid (formats off)', peers, {
    baseline: 'ajv',
  });
}

// (c) invalid input with three errors, all collected
{
  const invalidOrder = {
    ...validOrder,
    customer: { ...validOrder.customer, tier: 'gold' },
    items: [validOrder.items[0], { ...validOrder.items[1], qty: 0 }],
    placedAt: 'yesterday',
  };
  const schema = order.toJSON();
  const finoValidator = compile(order, { formats: true });
  const ajv = newAjv(true).compile(schema);
  const cfworker = new Validator(schema as never, '2020-12', false);
  const count = {
    ajv: () => (ajv(invalidOrder) ? 0 : ajv.errors!.length),
    fino: () => {
      const result = finoValidator.safeParse(invalidOrder);
      return result.success ? 0 : result.issues.length;
    },
    zod: () => orderZod.safeParse(invalidOrder).error?.issues.length ?? 0,
    valibot: () => valibot.safeParse(orderValibot, invalidOrder).issues?.length ?? 0,
  };
  for (const [name, run] of Object.entries(count)) check(`${name} (3 issues)`, run() === 3, true);
  // cfworker reports each failing keyword and every enclosing one: more than three errors.
  check('cfworker', cfworker.validate(invalidOrder).valid, false);
  await compare(
    '(c) invalid input with three errors, all errors',
    { ...count, cfworker: () => cfworker.validate(invalidOrder).errors.length },
    { baseline: 'ajv' },
  );
}

// (d) compiling 200 distinct tool schemas (and validating one call of each, so lazy work counts)
{
  let round = 0;
  const next = () => toolSchemas(200, round++);
  const peers = {
    ajv: () => {
      const ajv = new Ajv2020({ strict: false });
      for (const { schema, sample } of next()) check('ajv', ajv.compile(schema)(sample), true);
    },
    fino: () => {
      for (const { schema, sample } of next()) {
        check('fino', compile(schema).safeParse(sample).success, true);
      }
    },
    cfworker: () => {
      for (const { schema, sample } of next()) {
        check('cfworker', new Validator(schema as never, '2020-12').validate(sample).valid, true);
      }
    },
  };
  await compare('(d) compile 200 distinct tool schemas (+ one validation each)', peers, {
    baseline: 'ajv',
  });
}

// The real-world tool schemas, timed in batches.
await import('./real-world-bench.ts');
