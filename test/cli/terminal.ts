// Drives the built `fino` binary in a real pseudo-terminal with tmux: start a command,
// wait for text on the screen, type keys, read the screen.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const socket = `fino-test-${process.pid}`;
let sessions = 0;

const tmux = (...args: string[]): string =>
  execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });

/** Fails with the way to install tmux when it is missing. */
export function requireTmux(): void {
  try {
    execFileSync('tmux', ['-V']);
  } catch {
    throw new Error('these tests need tmux: apt-get install -y tmux');
  }
}

/** A pane running `fino <args>` in `cwd`; it prints `EXIT=<code>` when the command ends. */
export interface Terminal {
  /** The screen's text (with scrollback). */
  screen(): string;
  /** Waits until the screen contains `text`; fails with the screen after `timeoutMs`. */
  waitFor(text: string, timeoutMs?: number): Promise<string>;
  /** Types `keys` and Enter. */
  type(keys: string): void;
  /** Presses a key by tmux name, like `C-c`. */
  keys(name: string): void;
  close(): void;
}

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * The server outlives each test's session: a session of its own keeps it from exiting
 * when a test closes the last one, which raced with the next test's `new-session`
 * ("server exited unexpectedly" under load).
 */
function keepServer(): void {
  if (sessions === 0) tmux('new-session', '-d', '-s', 'keep', 'sleep 86400');
}

/** Starts `node bin/fino.js <args>` in a new tmux pane in `cwd`. */
export function fino(args: string[], cwd: string): Terminal {
  keepServer();
  const name = `t${++sessions}`;
  const command = [process.execPath, join(root, 'bin/fino.js'), ...args].map(quote).join(' ');
  tmux(
    'new-session',
    '-d',
    '-s',
    name,
    '-x',
    '200',
    '-y',
    '50',
    '-c',
    cwd,
    `${command}; echo EXIT=$?; sleep 600`,
  );
  const screen = () => tmux('capture-pane', '-p', '-J', '-S', '-100', '-t', name);
  return {
    screen,
    async waitFor(text, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const shown = screen();
        if (shown.includes(text)) return shown;
        if (Date.now() > end) throw new Error(`"${text}" never appeared; the screen:\n${shown}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    type(keys) {
      tmux('send-keys', '-t', name, '-l', keys);
      tmux('send-keys', '-t', name, 'Enter');
    },
    keys(key) {
      tmux('send-keys', '-t', name, key);
    },
    close() {
      tmux('kill-session', '-t', name);
    },
  };
}

/** Stops this test file's tmux server. */
export function stopTmux(): void {
  try {
    tmux('kill-server');
  } catch {
    // No session was started.
  }
}
