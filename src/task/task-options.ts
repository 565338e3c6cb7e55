/**
 * The checks of `new Task(options)` on the options that have no schema of their own:
 * each wrong value is a `TypeError` naming the option, what was expected and what was
 * received.
 */
import { describeValue } from '../internal/describe-value.ts';
import { checkDuration } from '../internal/duration.ts';
import { checkOptionalType, typeError } from '../internal/option-type.ts';
import type { OutputModes, Risk, TaskExecution, TaskOptions } from './types.ts';

/** The options `checkTaskOptions` checked, with `outputMode` defaulted. */
export interface CheckedTaskOptions<Input, Output> {
  name: string;
  run: TaskOptions<Input, Output>['run'];
  timeoutMs: number | undefined;
  outputMode: OutputModes;
  risk: Risk | undefined;
  idempotent: boolean | undefined;
  execution: TaskExecution | undefined;
  scopes: readonly string[];
}

/** Checks the options of a task; throws a `TypeError` (a `RangeError` for `timeoutMs`). */
export function checkTaskOptions<Input, Output>(
  options: TaskOptions<Input, Output>,
): CheckedTaskOptions<Input, Output> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      `Task options: expected an object with at least \`name\` and \`run\`, received ${describeValue(options)}`,
    );
  }
  const { name, run, timeoutMs } = options;
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(`Task name: expected a non-empty string, received ${describeValue(name)}`);
  }
  if (typeof run !== 'function') {
    throw new TypeError(`Task "${name}": run: expected a function, received ${describeValue(run)}`);
  }
  const { outputMode = 'text' } = options;
  if (outputMode !== 'text' && outputMode !== 'json' && outputMode !== 'both') {
    throw new TypeError(
      `Task "${name}": outputMode: expected 'text', 'json' or 'both', received ${describeValue(outputMode)}`,
    );
  }
  checkDuration(`Task "${name}": timeoutMs`, timeoutMs);
  const { risk } = options;
  if (risk !== undefined && (typeof risk !== 'string' || risk === '')) {
    throw new TypeError(
      `Task "${name}": risk: expected a non-empty string such as 'low', 'medium', 'high' or 'destructive', received ${describeValue(risk)}`,
    );
  }
  const { idempotent } = options;
  checkOptionalType(idempotent, 'boolean', `Task "${name}": idempotent`, typeError);
  const { execution } = options;
  if (execution !== undefined && execution !== 'task' && execution !== 'task-optional') {
    throw new TypeError(
      `Task "${name}": execution: expected 'task' or 'task-optional', received ${describeValue(execution)}`,
    );
  }
  const { scopes = [] } = options;
  if (!Array.isArray(scopes)) {
    throw new TypeError(
      `Task "${name}": scopes: expected an array of OAuth scope strings, received ${describeValue(scopes)}`,
    );
  }
  const badScope = scopes.findIndex(
    (scope) => typeof scope !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope),
  );
  if (badScope !== -1) {
    throw new TypeError(
      `Task "${name}": scopes[${badScope}]: expected a non-empty OAuth scope (printable ASCII, no spaces, quotes or backslashes), received ${describeValue(scopes[badScope])}`,
    );
  }
  return { name, run, timeoutMs, outputMode, risk, idempotent, execution, scopes: [...scopes] };
}
