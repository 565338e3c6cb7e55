import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of the developers' guide, checked over every file under `src/`:
 * a module reaches another only through its `index.ts` (`src/internal/` is shared by
 * all), and no runtime import cycle exists (one that works only because a call is made
 * lazily breaks as soon as someone calls it at load time).
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
  });
});
