/**
 * A session's threads as its callers reach them: a page of a thread's messages,
 * forgetting a thread, forking one. How runs continue threads is in `thread-options.ts`
 * and the store's `sql-threads/`.
 */
import { describeValue } from '../../internal/describe-value.ts';
import { sortableId } from '../../internal/sortable-id.ts';
import { SessionError } from './errors.ts';
import type { Session } from './session-api.ts';
import type { SessionCore } from './session-core.ts';
import { checkCount, checkThreadId, threadPage } from './thread-options.ts';

/** The thread methods of a session over `core`. */
export function sessionThreads({
  store,
}: SessionCore): Pick<Session, 'thread' | 'forget' | 'fork'> {
  return {
    async thread(threadId, pageOptions = {}) {
      checkThreadId(threadId, 'thread: threadId');
      return store.thread(threadId, threadPage(pageOptions));
    },

    async forget(threadId) {
      checkThreadId(threadId, 'forget: threadId');
      return store.forgetThread(threadId);
    },

    async fork(threadId, forkOptions = {}) {
      checkThreadId(threadId, 'fork: threadId');
      if (forkOptions === null || typeof forkOptions !== 'object') {
        throw new SessionError(
          'INVALID_ARGUMENT',
          `fork(threadId, options): expected { at?, threadId? }, received ${describeValue(forkOptions)}`,
        );
      }
      const at = checkCount(forkOptions.at, 'fork: at', 0);
      const into =
        forkOptions.threadId === undefined ? sortableId('thread_') : forkOptions.threadId;
      checkThreadId(into, 'fork: options.threadId');
      return store.forkThread(threadId, at, into);
    },
  };
}
