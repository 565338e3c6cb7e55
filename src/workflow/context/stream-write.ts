/**
 * `ctx.writeStream` and `ctx.closeStream`: streams out of a run (decision 227). A chunk is
 * not a history entry — a stream may hold thousands, which every replay would read — but a
 * row of its own, numbered by the order the code writes it: the nth chunk the code writes
 * to a stream is offset n-1 in every execution. A replay finds how many chunks the stream
 * holds (one query per stream and execution) and writes only those past them, so each is
 * written once however often the code replays. Writes to one stream are made one after
 * another, so the stored chunks never have a gap. The bounds (`stream-limits.ts`) are
 * checked against what this execution's code wrote, so a replay refuses exactly what the
 * first execution refused. Both refuse to run inside a step's function or a tool call
 * (`INVALID_ARGUMENT`): a completed step never runs again, so its writes could not be
 * numbered the same way on replay.
 */
import { WorkflowError } from '../errors.ts';
import { toCheckpoint } from '../json-value.ts';
import {
  checkStreamName,
  MAX_STREAM_BYTES,
  MAX_STREAM_CHUNKS,
  MAX_STREAMS_PER_RUN,
} from '../stream-limits.ts';
import { runningEffect } from './effect-scope.ts';
import { never, type ReplayEngine } from './replay-engine.ts';

/** What one execution knows of one of its streams. */
interface StreamWriter {
  name: string;
  /** Chunks the code wrote to it in this execution (the next chunk's offset). */
  written: number;
  /** Bytes of JSON those chunks hold. */
  bytes: number;
  /** Whether the code closed it in this execution. */
  closed: boolean;
  /** How many chunks the store held when this execution first wrote to it, and whether it was closed. */
  stored?: Promise<{ length: number; closed: boolean }>;
  /** The write in flight: the next one waits for it. */
  queue: Promise<unknown>;
}

const writersOf = new WeakMap<ReplayEngine, Map<string, StreamWriter>>();

/** `ctx.writeStream(name, value)`: appends `value` to the run's stream `name`, once. */
export async function writeStream(
  engine: ReplayEngine,
  name: string,
  value: unknown,
): Promise<void> {
  checkStreamName(name, 'ctx.writeStream');
  checkFromRunCode('ctx.writeStream', name);
  const where = `a chunk of stream "${name}"`;
  if (value === undefined) {
    throw new WorkflowError(
      'INVALID_ARGUMENT',
      `ctx.writeStream: ${where}: expected a JSON value, received undefined`,
    );
  }
  const text = toCheckpoint(value, where, engine.deps.maxValueBytes)!;
  const writer = writerOf(engine, name);
  if (writer.closed) {
    throw new WorkflowError(
      'STREAM_CLOSED',
      `stream "${name}" of run "${engine.runId}" was closed; it takes no more chunks`,
      { runId: engine.runId },
    );
  }
  const bytes = Buffer.byteLength(text);
  if (writer.written >= MAX_STREAM_CHUNKS || writer.bytes + bytes > MAX_STREAM_BYTES) {
    throw new WorkflowError(
      'STREAM_FULL',
      `stream "${name}" of run "${engine.runId}" holds ${writer.written} chunks (${writer.bytes} bytes); a stream holds at most ${MAX_STREAM_CHUNKS} chunks and ${MAX_STREAM_BYTES} bytes of JSON`,
      { runId: engine.runId },
    );
  }
  const offset = writer.written++;
  writer.bytes += bytes;
  await serially(engine, writer, (stored) =>
    offset < stored.length
      ? true
      : engine.deps.store.appendStream(
          engine.runId,
          engine.deps.owner,
          { name, offset, value: text },
          engine.deps.leaseMs,
        ),
  );
}

/** `ctx.closeStream(name)`: closes the run's stream `name`; its readers end after its last chunk. */
export async function closeStream(engine: ReplayEngine, name: string): Promise<void> {
  checkStreamName(name, 'ctx.closeStream');
  checkFromRunCode('ctx.closeStream', name);
  const writer = writerOf(engine, name);
  if (writer.closed) return;
  writer.closed = true;
  await serially(engine, writer, (stored) =>
    stored.closed
      ? true
      : engine.deps.store.closeStream(engine.runId, engine.deps.owner, name, engine.deps.leaseMs),
  );
}

/** `INVALID_ARGUMENT` when called from inside a step's function or a tool call. */
function checkFromRunCode(what: string, name: string): void {
  const effect = runningEffect();
  if (effect === undefined) return;
  throw new WorkflowError(
    'INVALID_ARGUMENT',
    `${what}("${name}") inside ${effect}: streams are written from the run's code, not from a step or tool it runs (a completed step never runs again, so its writes could not be kept once); return the value from the step and write it after`,
  );
}

/** This execution's writer of stream `name`; `STREAM_FULL` past the most streams a run may write. */
function writerOf(engine: ReplayEngine, name: string): StreamWriter {
  let writers = writersOf.get(engine);
  if (!writers) {
    writers = new Map();
    writersOf.set(engine, writers);
  }
  const known = writers.get(name);
  if (known) return known;
  if (writers.size >= MAX_STREAMS_PER_RUN) {
    throw new WorkflowError(
      'STREAM_FULL',
      `run "${engine.runId}" already writes ${writers.size} streams, the most a run may write; stream "${name}" would be one more`,
      { runId: engine.runId },
    );
  }
  const writer: StreamWriter = {
    name,
    written: 0,
    bytes: 0,
    closed: false,
    queue: Promise.resolve(),
  };
  writers.set(name, writer);
  return writer;
}

/**
 * Runs `write` after the stream's write in flight, as a live operation (the run does not
 * park while it is in flight). `write` gets what the store held at this execution's
 * first write and answers `true` for a write a replay skips, or the lease it wrote under;
 * a lost lease or an ended execution never returns.
 */
async function serially(
  engine: ReplayEngine,
  writer: StreamWriter,
  write: (stored: {
    length: number;
    closed: boolean;
  }) => true | Promise<{ held: boolean; cancelRequested: boolean }>,
): Promise<void> {
  if (engine.deps.replay) return; // a replay checks the code against its history; streams are not in it
  const previous = writer.queue;
  let done = () => {};
  writer.queue = new Promise<void>((resolve) => {
    done = resolve;
  });
  engine.enterLive();
  try {
    await previous;
    if (engine.ended || engine.stopping) return never();
    writer.stored ??= engine.deps.store.streamLength(engine.runId, writer.name);
    const lease = await write(await writer.stored);
    if (lease !== true && !engine.learn(lease)) return never();
  } finally {
    done();
    engine.liveEnded();
  }
}
