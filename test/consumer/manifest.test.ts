/**
 * What package.json promises a user (decision 070), checked without npm: installing fino
 * compiles nothing, the database drivers are optional peers, and the metadata a registry
 * page shows is there and consistent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lockfile = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

/**
 * Packages of the production tree allowed an install script, with why it is harmless.
 * esbuild's postinstall (`node install.js`) only checks that the prebuilt binary of its
 * platform package (an optional dependency) is there; tsx works with `--ignore-scripts`
 * too, which the consumer test's CommonJS project proves.
 */
const INSTALL_SCRIPTS_ALLOWED = new Set(['esbuild']);

describe('package.json', () => {
  it('installs nothing that runs node-gyp: no native package in the production tree', () => {
    const scripted = Object.entries<any>(lockfile.packages)
      .filter(([path, entry]) => path !== '' && !entry.dev && !entry.devOptional)
      .filter(([, entry]) => entry.hasInstallScript || entry.gypfile)
      .map(([path]) => path.replace(/^.*node_modules\//, ''))
      .filter((name) => !INSTALL_SCRIPTS_ALLOWED.has(name));
    expect(scripted).toEqual([]);
  });

  it('runs no script of its own when installed, and builds dist/ when packed (decision 189)', () => {
    for (const event of ['preinstall', 'install', 'postinstall', 'prepare']) {
      expect(manifest.scripts[event], `scripts.${event}`).toBeUndefined();
    }
    expect(manifest.scripts.prepack).toBe('npm run build');
  });

  it('makes the database drivers optional peers, installed for the repository’s own tests', () => {
    for (const driver of ['better-sqlite3', 'pg']) {
      expect(manifest.dependencies[driver], driver).toBeUndefined();
      expect(manifest.peerDependencies[driver], driver).toBeDefined();
      expect(manifest.peerDependenciesMeta[driver], driver).toEqual({ optional: true });
      expect(manifest.devDependencies[driver], driver).toBeDefined();
    }
  });

  it('names its repository, home page and issue tracker consistently', () => {
    const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(manifest.homepage).toBe(`${repository}#readme`);
    expect(manifest.bugs.url).toBe(`${repository}/issues`);
    expect(manifest.license).toBe('MIT');
    const license = readFileSync(join(root, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the fino authors\n/);
  });
});
