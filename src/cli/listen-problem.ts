/**
 * A failed bind said in the words of the command line that asked for it: `listen()`
 * names the address and the cause without any flag (it is a library call), and each
 * command says which of its own flags chooses another one (`fino mcp --http`,
 * `npm start --port`).
 */

/**
 * `error` (from `listen()`) with the advice `flag` gives for a port, when the bind failed
 * because the port is taken or not permitted; any other error as it is.
 *
 * @example
 * ```ts
 * import { listenProblem } from './listen-problem.ts';
 *
 * const busy = new Error('listen: 127.0.0.1:3000 is already in use', {
 *   cause: Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }),
 * });
 * console.log((listenProblem(busy, (port) => `--port ${port}`) as Error).message);
 * // listen: 127.0.0.1:3000 is already in use; choose another port with --port 3001 (--port 0 picks a free one)
 * ```
 */
export function listenProblem(error: unknown, flag: (port: number) => string): unknown {
  const code = ((error as Error | undefined)?.cause as NodeJS.ErrnoException | undefined)?.code;
  const port = Number(/:(\d+) /.exec(String((error as Error | undefined)?.message))?.[1]);
  if (code === 'EADDRINUSE' && Number.isInteger(port)) {
    return new Error(
      `${(error as Error).message}; choose another port with ${flag(port + 1 > 65535 ? 3000 : port + 1)} (${flag(0)} picks a free one)`,
      { cause: error },
    );
  }
  if (code === 'EACCES') {
    return new Error(`${(error as Error).message}; choose one with ${flag(3000)}`, {
      cause: error,
    });
  }
  return error;
}
