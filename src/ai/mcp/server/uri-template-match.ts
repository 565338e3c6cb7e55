/**
 * Matching a URI against a resource template in time linear in the URI: the template's
 * expressions as the SDK's `UriTemplate.match` reads them (`{var}`, `{var*}`, `{+var}`,
 * `{#var}`, `{.var}`, `{/var}`, `{/var*}`, `{?a,b}`, `{&a}`), the same greedy,
 * leftmost-first results its regular expression gives — run as a Pike VM (every
 * candidate position at once) instead of by backtracking. Decision 185.
 */

/** Which characters a variable's value may hold, as the SDK's patterns say. */
type CharClass = 'segment' | 'query' | 'line';

type Instruction =
  | { op: 'char'; code: number }
  | { op: 'class'; accepts: CharClass }
  | { op: 'split'; prefer: number; other: number }
  | { op: 'jump'; to: number }
  | { op: 'save'; slot: number }
  | { op: 'match' };

/** A compiled template. */
export interface UriMatcher {
  /** The variables of `uri` (arrays of exploded values joined by `,`), or `null` when it does not match. */
  match(uri: string): Record<string, string> | null;
}

interface Expression {
  operator: string;
  names: string[];
  exploded: boolean;
}

const OPERATORS = ['+', '#', '.', '/', '?', '&'];
const COMMA = 0x2c;

/**
 * Compiles `template` (already accepted by the SDK's `UriTemplate`); throws a `TypeError`
 * for an expression that names no variable (`{}`), which the SDK cannot match either.
 */
export function uriMatcher(template: string): UriMatcher {
  const program: Instruction[] = [];
  const names: string[] = [];
  for (const part of templateParts(template)) {
    if (typeof part === 'string') literal(program, part);
    else expression(program, names, part);
  }
  program.push({ op: 'match' });
  return { match: (uri) => run(program, names, uri) };
}

/** The template's literal text and expressions, split as the SDK's parser splits them. */
function templateParts(template: string): (string | Expression)[] {
  const parts: (string | Expression)[] = [];
  let start = 0;
  for (let open = template.indexOf('{'); open !== -1; open = template.indexOf('{', start)) {
    if (open > start) parts.push(template.slice(start, open));
    const close = template.indexOf('}', open);
    const body = template.slice(open + 1, close);
    const operator = OPERATORS.find((op) => body.startsWith(op)) ?? '';
    const names = body
      .slice(operator.length)
      .split(',')
      .map((name) => name.replace('*', '').trim())
      .filter((name) => name.length > 0);
    parts.push({ operator, names, exploded: body.includes('*') });
    start = close + 1;
  }
  if (start < template.length) parts.push(template.slice(start));
  return parts;
}

function literal(program: Instruction[], text: string): void {
  for (let i = 0; i < text.length; i++) program.push({ op: 'char', code: text.charCodeAt(i) });
}

function expression(program: Instruction[], names: string[], part: Expression): void {
  const [first] = part.names;
  if (first === undefined) throw new TypeError('expected a variable name in each {…} expression');
  if (part.operator === '?' || part.operator === '&') {
    for (const [index, name] of part.names.entries()) {
      literal(program, `${index === 0 ? part.operator : '&'}${name}=`);
      capture(program, names, name, () => oneOrMore(program, 'query'));
    }
    return;
  }
  if (part.operator === '.' || part.operator === '/') literal(program, part.operator);
  const accepts: CharClass = part.operator === '+' || part.operator === '#' ? 'line' : 'segment';
  const exploded = part.exploded && (part.operator === '' || part.operator === '/');
  capture(program, names, first, () =>
    exploded ? commaSeparated(program) : oneOrMore(program, accepts),
  );
}

/** Brackets what `body` emits with the two save slots of `name`. */
function capture(program: Instruction[], names: string[], name: string, body: () => void): void {
  const slot = names.push(name) * 2 - 2;
  program.push({ op: 'save', slot });
  body();
  program.push({ op: 'save', slot: slot + 1 });
}

/** `[class]+`, greedy. */
function oneOrMore(program: Instruction[], accepts: CharClass): void {
  const start = program.length;
  program.push({ op: 'class', accepts });
  program.push({ op: 'split', prefer: start, other: start + 2 });
}

/** `[^/,]+(?:,[^/,]+)*`, greedy. */
function commaSeparated(program: Instruction[]): void {
  const start = program.length;
  oneOrMore(program, 'segment');
  program.push({ op: 'split', prefer: start + 3, other: start + 5 });
  program.push({ op: 'char', code: COMMA });
  program.push({ op: 'jump', to: start });
}

function accepted(accepts: CharClass, code: number): boolean {
  if (accepts === 'segment') return code !== 0x2f && code !== COMMA;
  if (accepts === 'query') return code !== 0x26;
  return code !== 0x0a && code !== 0x0d && code !== 0x2028 && code !== 0x2029;
}

interface Thread {
  pc: number;
  saved: readonly number[];
}

/**
 * Runs `program` over `uri`, all threads in step, in priority order: a thread reaching
 * an instruction another thread of higher priority already holds is dropped, so the
 * survivor at the end is the match backtracking would have found first.
 */
function run(program: Instruction[], names: string[], uri: string): Record<string, string> | null {
  const seen = new Int32Array(program.length).fill(-1);
  let threads: Thread[] = [];
  follow(program, seen, threads, 0, [], 0);
  for (let position = 0; position < uri.length && threads.length > 0; position++) {
    const code = uri.charCodeAt(position);
    const next: Thread[] = [];
    for (const thread of threads) {
      const step = program[thread.pc] as Instruction;
      const moves =
        (step.op === 'char' && step.code === code) ||
        (step.op === 'class' && accepted(step.accepts, code));
      if (moves) follow(program, seen, next, thread.pc + 1, thread.saved, position + 1);
    }
    threads = next;
  }
  const winner = threads.find((thread) => program[thread.pc]?.op === 'match');
  if (winner === undefined) return null;
  const variables: Record<string, string> = Object.create(null);
  for (const [index, name] of names.entries()) {
    variables[name] = uri.slice(winner.saved[index * 2], winner.saved[index * 2 + 1]);
  }
  return variables;
}

/** Adds the thread at `pc`, following jumps, splits and saves, unless `pc` is taken at `position`. */
function follow(
  program: Instruction[],
  seen: Int32Array,
  threads: Thread[],
  pc: number,
  saved: readonly number[],
  position: number,
): void {
  if (seen[pc] === position) return;
  seen[pc] = position;
  const step = program[pc] as Instruction;
  if (step.op === 'jump') {
    follow(program, seen, threads, step.to, saved, position);
  } else if (step.op === 'split') {
    follow(program, seen, threads, step.prefer, saved, position);
    follow(program, seen, threads, step.other, saved, position);
  } else if (step.op === 'save') {
    const copy = [...saved];
    copy[step.slot] = position;
    follow(program, seen, threads, pc + 1, copy, position);
  } else {
    threads.push({ pc, saved });
  }
}
