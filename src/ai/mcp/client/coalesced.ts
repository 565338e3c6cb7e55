/**
 * Work that many triggers ask for but one run satisfies (a refresh): at most one run in
 * flight and one more pending, however often it is triggered (decision 184).
 */

/**
 * Returns a trigger for `work`: a trigger while a run is in flight asks for one more run
 * after it, and any number of such triggers ask for that one run only. A failed run is
 * `onError`'s; the next trigger runs again.
 */
export function coalesced(
  work: () => Promise<void>,
  onError: (error: unknown) => void,
): () => void {
  let running = false;
  let pending = false;
  const run = async () => {
    running = true;
    do {
      pending = false;
      await work().catch(onError);
    } while (pending);
    running = false;
  };
  return () => {
    if (running) pending = true;
    else void run();
  };
}
