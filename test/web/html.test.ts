import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, joinHtml, trustedHtml } from '../../src/web/html/html.js';
import { jsonInScript } from '../../src/web/html/json-in-script.js';
import type { JsonValue } from '../../src/json/index.js';

/** The five entities escapeHtml writes, read back; `&amp;` last, so that `&amp;lt;` stays `&lt;`. */
function decodeEntities(markup: string): string {
  return markup
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('the html tag escapes every value it is given', () => {
  it('writes markup characters in text as entities', () => {
    const payload = `<script>alert("x" & 'y')</script>`;
    expect(html`<td>${payload}</td>`.markup).toBe(
      '<td>&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;</td>',
    );
  });

  it('keeps a quoted attribute closed, whichever quote the value holds', () => {
    expect(html`<a title="${'" onmouseover="alert(1)'}">`.markup).toBe('<a title="&quot; onmouseover=&quot;alert(1)">');
    expect(html`<a title='${"' onmouseover='alert(1)"}'>`.markup).toBe("<a title='&#39; onmouseover=&#39;alert(1)'>");
  });

  it('escapes an entity written as text, so that it shows as written', () => {
    expect(html`${'&lt;b&gt; &amp;'}`.markup).toBe('&amp;lt;b&amp;gt; &amp;amp;');
  });

  it('leaves nested Html as it is: escaped once, never twice', () => {
    const inner = html`<b>${'a < b'}</b>`;
    const outer = html`<p>${inner}</p>`;
    expect(outer.markup).toBe('<p><b>a &lt; b</b></p>');
    expect(html`<div>${outer}</div>`.markup).toBe('<div><p><b>a &lt; b</b></p></div>');
  });

  it('joins lists, escaping each text item and keeping each Html item', () => {
    const items = ['<i>', html`<li>${'&'}</li>`, 3, ['"', html`<br />`]];
    expect(html`<ul>${items}</ul>`.markup).toBe('<ul>&lt;i&gt;<li>&amp;</li>3&quot;<br /></ul>');
  });

  it('leaves out null, undefined and both booleans, and writes numbers', () => {
    expect(html`[${null}|${undefined}|${true}|${false}|${0}|${-1.5}]`.markup).toBe('[||||0|-1.5]');
  });

  it('escapes the parts joinHtml joins and its separator, and trusts only trustedHtml', () => {
    expect(joinHtml(['<a>', html`<b></b>`], ' & ').markup).toBe('&lt;a&gt; &amp; <b></b>');
    expect(html`${trustedHtml('<style>a>b{}</style>')}`.markup).toBe('<style>a>b{}</style>');
  });

  it('turns text into markup in which no tag can start, and which reads back as the text (any string)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const markup = html`${text}`.markup;
        expect(markup).toBe(escapeHtml(text));
        expect(markup).not.toMatch(/[<>"']/);
        expect(decodeEntities(markup)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes texts made of markup characters and entities alike (any mix)', () => {
    const pieces = fc.constantFrom('<', '>', '&', '"', "'", '&lt;', '&amp;', '<script>', '</script>', 'a', ' ');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const escaped = escapeHtml(text);
        expect(html`<td title="${text}">${text}</td>`.markup).toBe(`<td title="${escaped}">${escaped}</td>`);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(decodeEntities(escaped)).toBe(text);
      }),
    );
  });
});

describe('jsonInScript', () => {
  const closing = { note: '</script><script>alert(1)</script>', comment: '<!-- x -->', lines: 'a\u2028b\u2029c' };

  it('cannot close its script element or open a comment, and reads back as the document', () => {
    const text = jsonInScript(closing).markup;
    expect(text).not.toContain('<');
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(closing);
  });

  it('escapes only inside strings: an object key holding "<" reads back too', () => {
    const document = { '<b>': ['<', { '</script>': '\u2028' }] };
    const text = jsonInScript(document).markup;
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual(document);
  });

  it('round-trips any JSON document through JSON.parse, with no "<" and no line separator in its text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (generated) => {
        // JSON's own reading of the document (-0 becomes 0): what any reader of the script gets.
        const value = JSON.parse(JSON.stringify(generated)) as JsonValue;
        const text = jsonInScript(value).markup;
        expect(text).not.toMatch(/[<\u2028\u2029]/);
        expect(JSON.parse(text)).toEqual(value);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps "<", U+2028 and U+2029 in any string it is given', () => {
    const tricky = fc.string({ unit: fc.constantFrom('<', '/', 's', '\u2028', '\u2029', '!', '-', '\\', '"') });
    fc.assert(
      fc.property(tricky, (text) => {
        const markup = jsonInScript({ text }).markup;
        expect(markup).not.toMatch(/[<\u2028\u2029]/);
        expect(JSON.parse(markup)).toEqual({ text });
      }),
    );
  });
});
