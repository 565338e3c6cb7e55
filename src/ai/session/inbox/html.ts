/**
 * HTML built from tagged templates: every interpolated value is escaped unless it is
 * already {@link Html} (the result of another `html` template). Model-written arguments,
 * stored notes and run ids all pass through here, so none of them can open a tag.
 */

/** A fragment of trusted HTML: only `html` templates and {@link join} make one. */
export class Html {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML text node or a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const render = (part: Part): string => {
  if (part instanceof Html) return part.toString();
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeHtml(String(part));
};

/**
 * `html\`<p>${text}</p>\``: escapes `text` (strings, numbers, arrays of parts) and keeps
 * nested `html` fragments as they are. `null`, `undefined` and `false` render as nothing.
 */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}
