/**
 * A workflow definition's options, checked once by `workflow()`: its id, its limits, and
 * the validators of its input, output and signal payloads.
 */
import { type CompiledValidator, compile, type SchemaLike } from '../validate/index.ts';
import { WorkflowError } from './errors.ts';
import { DEFAULT_MAX_VALUE_BYTES } from './json-value.ts';
import type { WorkflowOptions } from './workflow.ts';

/** The checked options of a workflow. */
export interface WorkflowSettings {
  id: string;
  maxValueBytes: number;
  maxHistoryEntries: number;
  maxQueuedSignals: number;
  /** How many ended runs of a continue-as-new chain keep their history. */
  keepContinuedHistories: number;
  input: CompiledValidator<unknown> | undefined;
  output: CompiledValidator<unknown> | undefined;
  /** The validator of each declared signal's payload. */
  signals: ReadonlyMap<string, CompiledValidator<unknown>>;
  /** The declared signal names, if declared. */
  signalNames: ReadonlySet<string> | undefined;
}

/** A workflow's id: what `workflow()` accepts, and a schedule's workflow id too. */
export const WORKFLOW_ID_RULE = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;

/** Checks `workflow()` options, with a `TypeError` naming the bad option. */
export function readWorkflowOptions(options: WorkflowOptions<unknown, unknown>): WorkflowSettings {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `workflow(options): expected an object, received ${options === null ? 'null' : typeof options}`,
    );
  }
  const { id } = options;
  if (typeof id !== 'string' || !WORKFLOW_ID_RULE.test(id)) {
    throw new TypeError(
      `workflow: id: expected 1 to 128 letters, digits or . _ : / - (starting with a letter or digit), received ${typeof id === 'string' ? JSON.stringify(id.slice(0, 60)) : typeof id}`,
    );
  }
  if (typeof options.run !== 'function') {
    throw new TypeError(
      `workflow "${id}": run: expected a function, received ${typeof options.run}`,
    );
  }
  const maxValueBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
  if (!Number.isInteger(maxValueBytes) || maxValueBytes < 1) {
    throw new TypeError(
      `workflow "${id}": maxValueBytes: expected a whole number of bytes ≥ 1, received ${String(maxValueBytes)}`,
    );
  }
  const maxHistoryEntries = wholeNumber(id, 'maxHistoryEntries', options.maxHistoryEntries, 10_000);
  const maxQueuedSignals = wholeNumber(id, 'maxQueuedSignals', options.maxQueuedSignals, 1_000);
  const keepContinuedHistories = wholeNumber(
    id,
    'keepContinuedHistories',
    options.keepContinuedHistories,
    10,
  );
  const input = options.input === undefined ? undefined : compile(options.input as SchemaLike);
  const output = options.output === undefined ? undefined : compile(options.output as SchemaLike);
  const signals = new Map<string, CompiledValidator<unknown>>();
  for (const [name, schema] of Object.entries(options.signals ?? {})) {
    signals.set(name, compile(schema) as CompiledValidator<unknown>);
  }
  const signalNames = options.signals ? new Set(signals.keys()) : undefined;
  return {
    id,
    maxValueBytes,
    maxHistoryEntries,
    maxQueuedSignals,
    keepContinuedHistories,
    input,
    output,
    signals,
    signalNames,
  };
}

/** A limit option: a whole number ≥ 1, or `fallback` when absent. */
function wholeNumber(id: string, name: string, value: number | undefined, fallback: number) {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 1) {
    throw new TypeError(
      `workflow "${id}": ${name}: expected a whole number ≥ 1, received ${String(n)}`,
    );
  }
  return n;
}

/**
 * Checks a value against a schema, wrapped as `{ value }`: an async function returning
 * the value itself would read its `then` (a hostile value's getter).
 */
export async function checkValue(
  validator: CompiledValidator<unknown> | undefined,
  value: unknown,
  code: 'INVALID_INPUT' | 'INVALID_OUTPUT' | 'INVALID_ARGUMENT',
  what: string,
): Promise<{ value: unknown }> {
  if (!validator) return { value };
  const result = await validator.safeParseAsync(value);
  if (result.success) return { value: result.value };
  throw new WorkflowError(code, `${what} does not match its schema: ${result.error.message}`);
}
