import { readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `src/workflow/context/` is the deterministic side of a workflow (what a run's code
 * sees): it imports the module's shared files at its top, never the side that starts,
 * drives and shows runs (`lifecycle/`, `worker/`, the stores); the definition
 * (`workflow.ts`, which imports `lifecycle/`) only as a type.
 */
const WORKFLOW = resolve(import.meta.dirname, '../../src/workflow');
const CONTEXT = resolve(WORKFLOW, 'context');
const DRIVING = ['lifecycle/', 'worker/', 'sql/', 'stores.ts'];
const STATEMENT =
  /^\s*(?:import|export)\s+(type\s+)?(?:[^;'"]*?\s*from\s*)?['"](\.{1,2}\/[^'"]+)['"]/gm;

describe('src/workflow/context/', () => {
  it('imports nothing of the side that starts, drives and shows runs', () => {
    const problems = readdirSync(CONTEXT)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => {
        const file = resolve(CONTEXT, name);
        return [...readFileSync(file, 'utf8').matchAll(STATEMENT)].flatMap(
          ([, typeKeyword, specifier]) => {
            const to = relative(WORKFLOW, resolve(dirname(file), specifier));
            const driving = DRIVING.some((room) => to.startsWith(room));
            const definitionAtRuntime = to === 'workflow.ts' && typeKeyword === undefined;
            return driving || definitionAtRuntime ? [`context/${name} → ${to}`] : [];
          },
        );
      });
    expect(problems).toEqual([]);
  });
});
