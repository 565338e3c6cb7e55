/**
 * Renders a task's `--help` text from its name, description, arguments, options and children.
 */
import { type CliOption, type CliSpec, flagOf, kebabCase } from './cli-spec.ts';

/** What the help text describes. */
export interface HelpSubject {
  /** The command path, e.g. `fino run tools.ts get_weather`. */
  usage: string;
  description: string;
  cli: CliSpec;
  children: readonly { name: string; description: string }[];
  /** Whether `--json` is accepted. */
  json: boolean;
}

const valueHint = (option: CliOption): string => {
  if (option.type === 'boolean') return '';
  return option.choices ? ` <${option.choices.join('|')}>` : ` <${option.type}>`;
};

const notes = (option: CliOption): string => {
  const parts = [option.description ?? ''];
  if (option.required) parts.push('(required)');
  if (option.multiple) parts.push('(repeatable)');
  if (option.default !== undefined) parts.push(`(default: ${defaultText(option.default)})`);
  return parts.filter(Boolean).join(' ');
};

const defaultText = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** The width help text wraps at, as most terminals and `--help` texts do. */
const LINE_WIDTH = 80;

/** `text` broken at spaces into lines of at most `width` characters (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

/** Two columns; the right one wraps at {@link LINE_WIDTH}, continued under itself. */
const table = (rows: [string, string][]): string[] => {
  const width = Math.max(...rows.map(([left]) => left.length));
  const indent = width + 4;
  return rows.flatMap(([left, right]) =>
    wrap(right, Math.max(LINE_WIDTH - indent, 30)).map((part, i) =>
      `${i === 0 ? `  ${left.padEnd(width)}  ` : ' '.repeat(indent)}${part}`.trimEnd(),
    ),
  );
};

/** The first line of a description: a child's summary in its parent's command list. */
const summary = (description: string): string => description.split('\n')[0];

/** `<name>` for a required argument, `[name]` for an optional one, `[name…]` for the passthrough. */
const argumentName = (cli: CliSpec, key: string): string => {
  const name = kebabCase(key);
  if (key === cli.passthrough) return `[${name}…]`;
  const option = cli.options?.[key];
  return option && !option.required ? `[${name}]` : `<${name}>`;
};

/** The help text: usage line, description, arguments, options and commands. */
export function renderHelp(subject: HelpSubject): string {
  const { cli } = subject;
  const options = cli.options ?? {};
  const args = [...(cli.positionals ?? [])];
  if (cli.passthrough !== undefined) args.push(cli.passthrough);
  const usage = [subject.usage];
  if (subject.children.length > 0) usage.push('[command]');
  usage.push(...args.map((key) => argumentName(cli, key)), '[options]');
  const lines = [`Usage: ${usage.join(' ')}`, ''];
  if (subject.description) lines.push(subject.description, '');
  const described = args.filter((key) => options[key]?.positionalOnly);
  if (described.length > 0) {
    const rows = described.map((key): [string, string] => [
      argumentName(cli, key),
      options[key].description ?? '',
    ]);
    lines.push('Arguments:', ...table(rows), '');
  }
  const rows: [string, string][] = Object.keys(options)
    .filter((key) => !options[key].positionalOnly)
    .map((key) => {
      const option = options[key];
      const short = option.short ? `-${option.short}, ` : '';
      return [`${short}${flagOf(key)}${valueHint(option)}`, notes(option)];
    });
  if (subject.json) rows.push(['--json', 'Print the output as JSON']);
  rows.push(['-h, --help', 'Show this help']);
  lines.push('Options:', ...table(rows));
  if (subject.children.length > 0) {
    const rows = subject.children.map((c): [string, string] => [c.name, summary(c.description)]);
    lines.push('', 'Commands:', ...table(rows));
  }
  return lines.join('\n');
}
