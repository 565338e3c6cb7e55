import { SqlFailure } from './errors.ts';

/**
 * The database packages the drivers load on first use, and the command that installs
 * each. They are optional peer dependencies of fino: installing fino compiles nothing,
 * and only the store you use needs its driver. `better-sqlite3` is needed only on a
 * Node.js without `node:sqlite` (Node.js 20). Decisions 063 and 101.
 */
const INSTALL_COMMANDS = {
  'better-sqlite3': 'npm install better-sqlite3@12',
  pg: 'npm install pg',
} as const;

/** A database driver package a store may load. */
export type DriverPackage = keyof typeof INSTALL_COMMANDS;

/** Loads a module by name (`import()` itself, or a stand-in in tests). */
export type Importer = (name: string) => Promise<unknown>;

export const importModule: Importer = (name) => import(name);

/** What a `DRIVER_MISSING` message adds about when the package is needed, and the other way out. */
const WHEN: Partial<Record<DriverPackage, () => [string, string]>> = {
  'better-sqlite3': () => [
    ` on a Node.js without node:sqlite (this is ${process.version})`,
    ', or use Node.js 22.13 or later',
  ],
};

/**
 * The driver module `name`, imported now. When it is not installed, a `DRIVER_MISSING`
 * {@link SqlFailure} names the store that needs it (`store`, as the user wrote it, e.g.
 * `sqliteStore()`) and the command that installs it; any other failure (a broken
 * install) is rethrown as it is.
 */
export async function importDriver(
  name: DriverPackage,
  store: string,
  importer: Importer = importModule,
): Promise<unknown> {
  try {
    return await importer(name);
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      String(message).includes(`'${name}'`);
    if (!missing) throw error;
    const [when, otherwise] = WHEN[name]?.() ?? ['', ''];
    throw new SqlFailure(
      'DRIVER_MISSING',
      `${store} needs the "${name}" package${when}, which is not installed; install it with: ${INSTALL_COMMANDS[name]}${otherwise}`,
    );
  }
}
