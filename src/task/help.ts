/**
 * Renders a task's `--help` text from its name, description, options and children.
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
  return parts.filter(Boolean).join(' ');
};

const table = (rows: [string, string][]): string[] => {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd());
};

/** The help text: usage line, description, options and commands. */
export function renderHelp(subject: HelpSubject): string {
  const options = subject.cli.options ?? {};
  const positionals = (subject.cli.positionals ?? []).map((p) => `<${kebabCase(p)}>`);
  const usage = [subject.usage];
  if (subject.children.length > 0) usage.push('[command]');
  usage.push(...positionals, '[options]');
  const lines = [`Usage: ${usage.join(' ')}`, ''];
  if (subject.description) lines.push(subject.description, '');
  const rows: [string, string][] = Object.keys(options).map((key) => {
    const option = options[key];
    const short = option.short ? `-${option.short}, ` : '';
    return [`${short}${flagOf(key)}${valueHint(option)}`, notes(option)];
  });
  if (subject.json) rows.push(['--json', 'Print the output as JSON']);
  rows.push(['-h, --help', 'Show this help']);
  lines.push('Options:', ...table(rows));
  if (subject.children.length > 0) {
    lines.push('', 'Commands:', ...table(subject.children.map((c) => [c.name, c.description])));
  }
  return lines.join('\n');
}
