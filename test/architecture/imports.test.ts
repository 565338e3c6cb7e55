import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of `docs/architecture.md`, checked over every file under `src/`:
 * a module reaches another only through its `index.ts` (`src/internal/` is shared by
 * all), every import goes down the floors (never up, never sideways to a module on the
 * same floor), and no runtime import cycle exists (one that works only because a call
 * is made lazily breaks as soon as someone calls it at load time).
 */
const SRC = resolve(import.meta.dirname, '../../src');

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });

/** `validate`, `ai/agent`, `internal`, …: the module a file belongs to. */
function moduleOf(file: string): string {
  const [top, sub] = relative(SRC, file).split('/');
  return top === 'ai' ? `ai/${sub}` : top;
}

/**
 * The floors, read from the table under "## Floors" in `docs/architecture.md` (one home
 * for the rule: the document a newcomer reads is the one CI enforces). A module
 * imports only modules on lower floors, type-only imports too (a type that climbs a
 * floor is a design that does); modules on one floor know nothing of each other;
 * `register` imports none of them. A new module gets a row there in the same change.
 */
function floorsOf(markdown: string): Record<string, number> {
  const section = markdown.split(/^## Floors$/m)[1]?.split(/^## /m)[0] ?? '';
  const floors: Record<string, number> = {};
  for (const [, floor, modules] of section.matchAll(/^\|\s*(\d+)\s*\|([^|]+)\|/gm)) {
    for (const [, module] of modules.matchAll(/`src\/([a-z/]+?)\/?`/g))
      floors[module] = Number(floor);
  }
  return floors;
}

const ARCHITECTURE = readFileSync(resolve(SRC, '../docs/architecture.md'), 'utf8');
const FLOORS = floorsOf(ARCHITECTURE);

/** Each row of the Rooms table: the module's folder and the room folders (`name/`) it names. */
function roomRows(markdown: string): { module: string; rooms: string[] }[] {
  const section = markdown.split(/^## Rooms$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\|\s*`(src\/[\w/-]+\/)`\s*\|(.*)\|\s*$/gm)].map(
    ([, module, cell]) => ({
      module,
      rooms: [...cell.matchAll(/`([\w-]+\/)`/g)].map(([, room]) => room),
    }),
  );
}

/** Whether a folder named `room` (`name/`) is somewhere under `dir`. */
function folderUnder(dir: string, room: string): boolean {
  return readdirSync(dir, { withFileTypes: true }).some(
    (entry) =>
      entry.isDirectory() &&
      (`${entry.name}/` === room || folderUnder(join(dir, entry.name), room)),
  );
}

/** Every `src/…` path the page names in backticks (a folder ends with `/`). */
const namedPaths = (markdown: string) => [
  ...new Set([...markdown.matchAll(/`(src\/[\w./-]+)`/g)].map(([, path]) => path)),
];

/** Why the import `from → to` breaks the floor order, or `undefined` when it goes down. */
function floorProblem(from: string, to: string): string | undefined {
  if (from === to) return undefined;
  const [fromFloor, toFloor] = [FLOORS[from], FLOORS[to]];
  if (fromFloor === undefined) return `${from} has no floor in docs/architecture.md`;
  if (toFloor === undefined) return `${to} has no floor in docs/architecture.md`;
  if (from === 'register') return 'register imports none of the modules';
  if (toFloor < fromFloor) return undefined;
  return toFloor === fromFloor
    ? `${from} and ${to} share floor ${toFloor} and may not import each other`
    : `${from} (floor ${fromFloor}) imports ${to} (floor ${toFloor}), a floor up`;
}

interface Edge {
  to: string;
  /** Erased at compile time (`import type`, or every named binding is `type …`). */
  typeOnly: boolean;
}

const STATEMENT =
  /^\s*(?:import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
const SIDE_EFFECT = /^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Static relative imports and re-exports of `source`; dynamic `import()` is lazy, so not counted. */
function relativeImports(file: string, source: string): Edge[] {
  const edges: Edge[] = [];
  for (const [, typeKeyword, clause, specifier] of source.matchAll(STATEMENT)) {
    const named = /^\{([^}]*)\}$/s.exec(clause.trim());
    const bindings = named?.[1]
      .split(',')
      .map((b) => b.trim())
      .filter((b) => b !== '');
    const typeOnly =
      typeKeyword !== undefined ||
      (bindings !== undefined &&
        bindings.length > 0 &&
        bindings.every((b) => b.startsWith('type ')));
    edges.push({ to: resolve(dirname(file), specifier), typeOnly });
  }
  for (const [, specifier] of source.matchAll(SIDE_EFFECT)) {
    edges.push({ to: resolve(dirname(file), specifier), typeOnly: false });
  }
  return edges;
}

/** Every runtime cycle, each as the files it passes through. */
function runtimeCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at !== -1) cycles.push([...path.slice(at), next]);
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return cycles;
}

const files = sourceFiles(SRC);
const imports = new Map(
  files.map((file) => [file, relativeImports(file, readFileSync(file, 'utf8'))]),
);
const show = (file: string) => relative(SRC, file);

describe('imports under src/', () => {
  it('reach another module only through its index.ts (src/internal/ excepted)', () => {
    const crossings = [...imports].flatMap(([file, edges]) =>
      edges
        .filter(
          ({ to }) =>
            to.startsWith(SRC) &&
            moduleOf(to) !== moduleOf(file) &&
            moduleOf(to) !== 'internal' &&
            !to.endsWith('/index.ts'),
        )
        .map(({ to }) => `${show(file)} → ${show(to)}`),
    );
    expect(crossings).toEqual([]);
  });

  it('go down the floors: no import up, none sideways (type-only imports included)', () => {
    const problems = [...imports].flatMap(([file, edges]) =>
      edges
        .filter(({ to }) => to.startsWith(SRC))
        .flatMap(({ to }) => {
          const problem = floorProblem(moduleOf(file), moduleOf(to));
          return problem === undefined ? [] : [`${show(file)} → ${show(to)}: ${problem}`];
        }),
    );
    expect(problems).toEqual([]);
  });

  it('form no runtime cycle', () => {
    const graph = new Map(
      [...imports].map(([file, edges]) => [
        file,
        edges.filter((edge) => !edge.typeOnly).map((edge) => edge.to),
      ]),
    );
    expect(runtimeCycles(graph).map((cycle) => cycle.map(show).join(' → '))).toEqual([]);
  });

  it('the checks see what they claim to (a known crossing, a type-only import, a cycle)', () => {
    const file = join(SRC, 'ai/mcp/x.ts');
    const [crossing, erased] = relativeImports(
      file,
      "import { a } from '../../task/content.ts';\nimport { type B, type C } from './b.ts';\n",
    );
    expect(moduleOf(crossing.to)).toBe('task');
    expect(crossing.typeOnly).toBe(false);
    expect(erased.typeOnly).toBe(true);
    expect(
      runtimeCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c', 'a']]);
    expect(floorProblem('ai/agent', 'ai/session')).toMatch(/a floor up/);
    expect(floorProblem('workflow', 'ai/session')).toMatch(/share floor 6/);
    expect(floorProblem('internal', 'validate')).toMatch(/a floor up/);
    expect(floorProblem('ai/mcp', 'ai/session')).toBeUndefined();
    expect(floorProblem('cli', 'workflow')).toBeUndefined();
    expect(floorProblem('register', 'task')).toMatch(/register imports none/);
    expect(floorProblem('ai/new', 'task')).toMatch(/ai\/new has no floor/);
    expect(
      floorsOf(
        '## Floors\n\n| 0 | `src/internal/` |\n| 6 | `src/ai/session/`, `src/workflow/` |\n## Next\n| 9 | `src/x/` |',
      ),
    ).toEqual({ internal: 0, 'ai/session': 6, workflow: 6 });
  });

  it('name in docs/architecture.md only paths that exist, so its directions stay true', () => {
    const paths = namedPaths(ARCHITECTURE);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((path) => !existsSync(resolve(SRC, '..', path)))).toEqual([]);
    expect(namedPaths('see `src/a/b.ts` and `src/c/`, not src/d')).toEqual([
      'src/a/b.ts',
      'src/c/',
    ]);
  });

  it('name in the Rooms table of docs/architecture.md only rooms that exist in their module', () => {
    const rows = roomRows(ARCHITECTURE);
    expect(rows.length).toBeGreaterThan(10);
    const missing = rows.flatMap(({ module, rooms }) =>
      rooms
        .filter((room) => !folderUnder(resolve(SRC, '..', module), room))
        .map((room) => `${module} ${room}`),
    );
    expect(missing).toEqual([]);
    expect(roomRows('## Rooms\n| `src/x/` | `a/` (b) with `c/`; `d.ts` |\n## Next')).toEqual([
      { module: 'src/x/', rooms: ['a/', 'c/'] },
    ]);
  });

  it('read from docs/architecture.md a floor for each module of src/, and none for a module that is gone', () => {
    expect(Object.keys(FLOORS).sort()).toEqual([...new Set(files.map(moduleOf))].sort());
  });
});
