/**
 * Markup that is safe by construction: the only way to make an {@link Html}
 * is the {@link html} tag, which escapes every value it is given, or
 * {@link trustedHtml} for markup forkpoint wrote itself. Model output and tool
 * results are untrusted text; they reach a page as escaped text and nothing else.
 */
export class Html {
  /** Use {@link html}: a value made here is never escaped again. */
  private constructor(readonly markup: string) {}

  /** @internal The one door in, for the tag and for markup forkpoint wrote itself. */
  static of(markup: string): Html {
    return new Html(markup);
  }

  toString(): string {
    return this.markup;
  }
}

/** What a template may interpolate: markup, text (escaped), numbers, nothing, or a list of these. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as markup that shows it verbatim, in element content and in quoted attributes alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.markup;
  if (value === null || value === undefined || value === false || value === true) return '';
  if (typeof value === 'number') return escapeHtml(String(value));
  if (typeof value === 'string') return escapeHtml(value);
  return value.map(render).join('');
}

/**
 * The template tag every page is written with: the literal parts are markup,
 * every interpolated value is escaped (lists joined, `null`, `undefined` and
 * booleans left out), so `html\`<td>${toolOutput}</td>\`` shows a `<script>` as text.
 * Attribute values must be quoted in the template.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let markup = strings[0] ?? '';
  for (const [at, value] of values.entries()) markup += render(value) + (strings[at + 1] ?? '');
  return Html.of(markup);
}

/** Markup forkpoint wrote itself (a stylesheet, a script, an SVG it drew): never pass it a payload. */
export function trustedHtml(markup: string): Html {
  return Html.of(markup);
}

/** Markup of several parts in order, with `separator` between them. */
export function joinHtml(parts: readonly HtmlValue[], separator: HtmlValue = ''): Html {
  const rendered = parts.map(render);
  return Html.of(rendered.join(render(separator)));
}
