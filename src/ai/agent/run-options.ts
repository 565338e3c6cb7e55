/** The options of one run (`generate`, `stream`, `resume`, …), checked before it starts. */
import { unknownKeyMessage } from '../../internal/known-keys.ts';
import { AgentError } from './agent-error.ts';
import { checkHooks } from './hooks.ts';
import { describe } from './state.ts';
import type { AgentRunOptions } from './types.ts';

/** Every run option, hooks included, so a misspelt one (`onStepStrat`) is refused. */
const RUN_OPTIONS: Record<keyof AgentRunOptions, true> = {
  signal: true,
  runId: true,
  onCheckpoint: true,
  checkpointCopy: true,
  onStepStart: true,
  onStepFinish: true,
  onToolCall: true,
  onToolResult: true,
  onProgress: true,
  onEvent: true,
  history: true,
  summary: true,
  budget: true,
  agent: true,
};

/** The run options checked by their `typeof` alone, with what the error says was expected. */
const TYPED_OPTIONS = [
  ['onCheckpoint', 'function', 'a function'],
  ['onEvent', 'function', 'a function'],
  ['checkpointCopy', 'boolean', 'a boolean'],
  ['summary', 'string', 'a string'],
  ['agent', 'string', 'the name of an agent'],
] as const;

/** Checks a run's options, with an error naming the bad option and what was expected. */
export function checkRunOptions(options: AgentRunOptions): AgentRunOptions {
  if (options === null || typeof options !== 'object') {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `run options: expected an object, received ${describe(options)}`,
    );
  }
  const unknown = unknownKeyMessage('run options', options, Object.keys(RUN_OPTIONS));
  if (unknown) throw new AgentError('INVALID_ARGUMENT', unknown);
  const signal = options.signal as Partial<AbortSignal> | undefined;
  if (
    signal !== undefined &&
    (signal === null ||
      typeof signal.aborted !== 'boolean' ||
      typeof signal.addEventListener !== 'function')
  ) {
    throw new AgentError(
      'INVALID_ARGUMENT',
      `run options.signal: expected an AbortSignal, received ${describe(options.signal)}`,
    );
  }
  for (const [key, type, expected] of TYPED_OPTIONS) {
    const value = options[key];
    if (value !== undefined && typeof value !== type) {
      throw new AgentError(
        'INVALID_ARGUMENT',
        `run options.${key}: expected ${expected}, received ${describe(value)}`,
      );
    }
  }
  checkHooks(options);
  return options;
}
