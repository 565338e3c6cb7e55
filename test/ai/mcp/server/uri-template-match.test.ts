import { UriTemplate } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { uriMatcher } from '../../../../src/ai/mcp/server/uri-template-match.ts';

/** The SDK's answer, exploded arrays joined by `,` as fino passes them to `read`. */
function sdkMatch(template: string, uri: string): Record<string, string> | null {
  const matched = new UriTemplate(template).match(uri);
  if (matched === null) return null;
  return Object.fromEntries(
    Object.entries(matched).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(',') : value,
    ]),
  );
}

function fromFino(template: string, uri: string): Record<string, string> | null {
  const matched = uriMatcher(template).match(uri);
  return matched === null ? null : { ...matched };
}

describe('uriMatcher', () => {
  it("gives the SDK's results on the SDK's own matching cases", () => {
    const cases: [string, string][] = [
      ['http://example.com/users/{username}', 'http://example.com/users/fred'],
      ['/users/{username}/posts/{postId}', '/users/fred/posts/123'],
      ['/users/{username}', '/posts/123'],
      ['{/list*}', '/red,green,blue'],
      ['/api/{version}/{resource}/{id}', '/api/v1/users/123'],
      ['/search{?q}', '/search?q=test'],
      ['/search{?q,page}', '/search?q=test&page=1'],
      ['/users/{id}', '/users/123/extra'],
      ['/users/{id}', '/users'],
      ['/api/{param}', `/api/${'x'.repeat(100_000)}`],
      ['/api/{param}', '/api/'],
      ['/api/{param}', '/api/value/extra'],
      ['///{a}////{b}////', '///1////2////'],
      ['{+path}/here', '/foo/bar/here'],
      ['X{#var}', 'X/test'],
      ['X{.var}', 'X.test'],
      ['/path?static=1{&dynamic}', '/path?static=1&dynamic=hello'],
    ];
    for (const [template, uri] of cases) {
      expect(fromFino(template, uri), `${template} ← ${uri.slice(0, 40)}`).toEqual(
        sdkMatch(template, uri),
      );
    }
  });

  it("agrees with the SDK's greedy, leftmost-first regular expression on 40,000 generated URIs", () => {
    const templates = [
      'files://{name}.{ext}',
      '{a}{b}',
      '{+a}{+b}',
      'x{/l*}/y',
      '{l*}',
      '{?q,page}',
      '{.a}{.b}',
      '{a}.{b}.{c}',
      'a{/b}{/c*},{d}',
      '{a}{?b}{&c}',
    ];
    const alphabet = ['a', 'b', '.', '/', ',', '?', '&', '=', 'q', 'c', '\n', '#', 'x', 'l', 'y'];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const word = (max: number) =>
      Array.from({ length: random(max) }, () => alphabet[random(alphabet.length)]).join('');
    for (const template of templates) {
      for (let i = 0; i < 2000; i++) {
        const random_ = word(12);
        const shaped = template.replace(/\{[^}]*\}/g, () => word(5));
        for (const uri of [random_, shaped]) {
          expect(fromFino(template, uri), `${template} ← ${JSON.stringify(uri)}`).toEqual(
            sdkMatch(template, uri),
          );
        }
      }
    }
  });

  it('takes time linear in the URI where backtracking takes quadratic time', () => {
    const matcher = uriMatcher('files://{name}.{ext}');
    const started = performance.now();
    expect(matcher.match(`files://${'a.'.repeat(100_000)}/`)).toBeNull();
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses an expression that names no variable', () => {
    expect(() => uriMatcher('x://{}')).toThrow('expected a variable name in each {…} expression');
  });
});
