import { SessionError } from './errors.ts';

/**
 * The database packages the stores load on first use, and the command that installs
 * each. They are optional peer dependencies of fino: installing fino compiles nothing,
 * and only the store you use needs its driver. Decision 062.
 */
const INSTALL_COMMANDS = {
  'better-sqlite3': 'npm install better-sqlite3@12',
  pg: 'npm install pg',
} as const;

/** A database driver package a store may load. */
export type DriverPackage = keyof typeof INSTALL_COMMANDS;

/** Loads a package by name; `import()` itself, or a stand-in in tests. */
export type Importer = (name: DriverPackage) => Promise<unknown>;

const importPackage: Importer = (name) => import(name);

/**
 * The driver module `name`, imported now. When it is not installed, a `DRIVER_MISSING`
 * {@link SessionError} names the store that needs it and the command that installs it;
 * any other failure (a broken install) is rethrown as it is.
 */
export async function importDriver(
  name: DriverPackage,
  store: string,
  importer: Importer = importPackage,
): Promise<unknown> {
  try {
    return await importer(name);
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      String(message).includes(`'${name}'`);
    if (!missing) throw error;
    throw new SessionError(
      'DRIVER_MISSING',
      `${store} needs the "${name}" package, which is not installed; install it with: ${INSTALL_COMMANDS[name]}`,
    );
  }
}
