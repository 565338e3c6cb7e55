/**
 * Several async iterators read as one, each value as soon as its iterator gives it, and
 * pulled, never buffered: an iterator is asked for its next value only after its last one
 * was taken, so at most one value per iterator waits. What the iterators wait on (a store
 * read, a poll) is theirs to stop: `stop` is called when the merged reading ends early
 * (the reader's `return()`, an iterator's error), before the iterators still waited on
 * are settled and returned.
 */

/** One pulled value of lane `lane` (or its end). */
interface Pulled<T> {
  lane: AsyncIterator<T>;
  result: IteratorResult<T>;
}

/**
 * The values of `lanes`, in the order they come; ends when every lane has ended, throws
 * the first lane's error.
 */
export async function* mergeLanes<T>(
  lanes: readonly AsyncIterator<T>[],
  stop: () => void,
): AsyncGenerator<T> {
  const waiting = new Map<AsyncIterator<T>, Promise<Pulled<T>>>();
  const pull = (lane: AsyncIterator<T>) =>
    waiting.set(
      lane,
      lane.next().then((result) => ({ lane, result })),
    );
  let ended = false;
  try {
    for (const lane of lanes) pull(lane);
    while (waiting.size > 0) {
      const { lane, result } = await Promise.race(waiting.values());
      waiting.delete(lane);
      if (result.done) continue;
      yield result.value;
      pull(lane);
    }
    ended = true;
  } finally {
    if (!ended) stop();
    await Promise.allSettled(waiting.values());
    await Promise.allSettled(lanes.map((lane) => lane.return?.()));
  }
}

/** The values of `lanes`, one lane after another: the order never depends on timing. */
export async function* laneAfterLane<T>(lanes: readonly AsyncIterator<T>[]): AsyncGenerator<T> {
  try {
    for (const lane of lanes) {
      for (let next = await lane.next(); !next.done; next = await lane.next()) yield next.value;
    }
  } finally {
    await Promise.allSettled(lanes.map((lane) => lane.return?.()));
  }
}
