import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FINO_MODULES, resolveFinoSpecifier } from '../../src/register/specifiers.ts';

const root = new URL('file:///pkg/dist/');
const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('fino: specifiers', () => {
  it('resolve to the package modules under dist/', () => {
    expect(resolveFinoSpecifier('fino:ai/tool', root)).toBe('file:///pkg/dist/ai/tool/index.js');
    expect(resolveFinoSpecifier('fino:validate', root)).toBe('file:///pkg/dist/validate/index.js');
  });

  it('leave other specifiers to the next resolver', () => {
    expect(resolveFinoSpecifier('node:fs', root)).toBeUndefined();
    expect(resolveFinoSpecifier('./fino:task', root)).toBeUndefined();
  });

  it('name the known modules when the specifier is unknown', () => {
    expect(() => resolveFinoSpecifier('fino:ai/tools', root)).toThrow(
      'Unknown module "fino:ai/tools": fino provides fino:validate, fino:task, fino:ai/tool',
    );
    expect(() => resolveFinoSpecifier('fino:__proto__', root)).toThrow(/Unknown module/);
  });

  it('match the package exports, modules.d.ts and the tsconfig paths', () => {
    const exports = JSON.parse(read('package.json')).exports as Record<string, unknown>;
    const declarations = read('modules.d.ts');
    const paths = read('tsconfig.json');
    for (const [specifier, folder] of Object.entries(FINO_MODULES)) {
      expect(exports).toHaveProperty([`./${folder}`]);
      expect(declarations).toContain(
        `declare module '${specifier}' {\n  export * from 'fino/${folder}';`,
      );
      expect(paths).toContain(`"${specifier}": ["./src/${folder}/index.ts"]`);
    }
  });
});
