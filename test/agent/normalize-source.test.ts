import { describe, expect, it } from 'vitest';
import { normalizeSource } from '../../src/agent/normalize-source.js';
import { CLAIMS_HOOKS, RETRY_TOOL_UNDER_TSX_COMMONJS, SHAPES } from './measured-sources.js';

// Shapes whose measured sources still differ after normalising: the limits the code hash documents.
const DIFFERING_SHAPES = new Set(['imports', 'precedence']);

describe('normalizeSource on sources measured under tsc, vitest and tsx', () => {
  it.each(Object.entries(CLAIMS_HOOKS))('gives one text for the claims hook %s', (_hook, measured) => {
    expect(new Set([measured.tsc, measured.vitest, measured.tsx]).size).toBeGreaterThan(1);
    expect(normalizeSource(measured.vitest)).toBe(normalizeSource(measured.tsc));
    expect(normalizeSource(measured.tsx)).toBe(normalizeSource(measured.tsc));
  });

  it.each(Object.entries(SHAPES).filter(([shape]) => !DIFFERING_SHAPES.has(shape)))(
    'gives one text for the shape %s',
    (_shape, measured) => {
      expect(normalizeSource(measured.vitest)).toBe(normalizeSource(measured.tsc));
      expect(normalizeSource(measured.tsx)).toBe(normalizeSource(measured.tsc));
    },
  );

  it('still tells an aliased or namespace import under vite from tsc, which keeps the local name', () => {
    const { imports } = SHAPES;
    if (imports === undefined) throw new Error('no imports shape');
    expect(normalizeSource(imports.tsx)).toBe(normalizeSource(imports.tsc));
    expect(normalizeSource(imports.tsc)).toBe(
      'v => [ isObj ( v ) , canonicalJson ( null ) , json . isJsonObject ( v ) , [ v ] . filter ( isObj ) ]',
    );
    expect(normalizeSource(imports.vitest)).toBe(
      'v => [ isJsonObject ( v ) , canonicalJson ( null ) , isJsonObject ( v ) , [ v ] . filter ( isJsonObject ) ]',
    );
  });

  it('keeps parentheses around more than one token as written, which tsc keeps and the others drop', () => {
    const { precedence } = SHAPES;
    if (precedence === undefined) throw new Error('no precedence shape');
    expect(normalizeSource(precedence.tsx)).toBe(normalizeSource(precedence.vitest));
    expect(normalizeSource(precedence.tsc)).toContain('- ( - a ) + ( a ** 2 )');
    expect(normalizeSource(precedence.vitest)).toContain('- - a + a ** 2');
  });

  it('does not undo the import rewrite of tsx loading ESM source from a CommonJS entry', () => {
    expect(normalizeSource(RETRY_TOOL_UNDER_TSX_COMMONJS)).toContain('( 0 , import_src . isJsonObject ) ( output )');
  });

  it('is idempotent on every measured source', () => {
    for (const measured of [...Object.values(CLAIMS_HOOKS), ...Object.values(SHAPES)]) {
      for (const source of [measured.tsc, measured.vitest, measured.tsx]) {
        const once = normalizeSource(source);
        expect(normalizeSource(once)).toBe(once);
      }
    }
  });
});

describe('normalizeSource on literals', () => {
  it('writes strings in one quoting, by their value', () => {
    expect(normalizeSource(`f('it\\'s', "a\\"b", '\\x41\\u00e9\\u{1F600}')`)).toBe(`f ( "it's" , "a\\"b" , "Aé😀" )`);
    expect(normalizeSource(`f("A\\xE9\\uD83D\\uDE00")`)).toBe(normalizeSource(`f('Aé😀')`));
  });

  it('keeps strings that differ in value apart, escapes included', () => {
    expect(normalizeSource(`'a\\nb'`)).not.toBe(normalizeSource(`'a\\\\nb'`));
    expect(normalizeSource(`'a\\'b'`)).not.toBe(normalizeSource(`'a\\\\'`));
    expect(normalizeSource(`"\\t"`)).not.toBe(normalizeSource(`"t"`));
  });

  it('keeps comment markers inside strings, templates and regular expressions', () => {
    expect(normalizeSource(`f("// x", '/* y */', \`/* z */\`, /\\/\\/w/)`)).toBe(
      'f ( "// x" , "/* y */" , `/* z */` , /\\/\\/w/ )',
    );
  });

  it('reads untagged templates by value and tagged ones as written', () => {
    expect(normalizeSource('`a\nb${x}`')).toBe(normalizeSource('`a\\nb${x}`'));
    expect(normalizeSource('`\\u0041`')).toBe(normalizeSource('`A`'));
    expect(normalizeSource('String.raw`a\nb`')).not.toBe(normalizeSource('String.raw`a\\nb`'));
    expect(normalizeSource('`a\\${b}`')).not.toBe(normalizeSource('`a${b}`'));
    expect(normalizeSource('`a\\`${`b${c}`}`')).toBe('`a\\`${ `b${ c }` }`');
  });

  it('writes numbers by value', () => {
    expect(normalizeSource('[1_000, 0x1F, 0o17, 0b11, .5, 5., 1E-7, 0x1fn, 10_0n]')).toBe(
      '[ 1000 , 31 , 15 , 3 , 0.5 , 5 , 1e-7 , 31n , 100n ]',
    );
    expect(normalizeSource('[0.55]')).not.toBe(normalizeSource('[0.56]'));
  });

  it('reads a division after a group and a regular expression after a control header', () => {
    expect(normalizeSource(`(a + b) / 2 / c`)).toBe('( a + b ) / 2 / c');
    expect(normalizeSource(`if (x) /'/.test(y)`)).toBe(`if ( x ) /'/ . test ( y )`);
    expect(normalizeSource(`{ } /"/g`)).toBe(`{ } /"/g`);
  });
});

describe('normalizeSource on punctuation', () => {
  it('drops trailing commas, but not the commas of array holes', () => {
    expect(normalizeSource('f(a, b,)')).toBe(normalizeSource('f(a, b)'));
    expect(normalizeSource('({ a, })')).toBe(normalizeSource('({ a })'));
    expect(normalizeSource('[,]')).not.toBe(normalizeSource('[]'));
    expect(normalizeSource('[1,,]')).not.toBe(normalizeSource('[1,]'));
  });

  it('drops a ; before } and an empty statement after a block, but not a ; after a function body', () => {
    expect(normalizeSource('() => { if (a) { b(); }; c(); }')).toBe(normalizeSource('() => { if (a) { b() } c() }'));
    expect(normalizeSource('() => { label: { break label; }; }')).toBe('( ) => { label : { break label } }');
    expect(normalizeSource('() => { const f = () => {}; [a] = b; }')).not.toBe(
      normalizeSource('() => { const f = () => {} [a] = b; }'),
    );
    expect(normalizeSource('() => { x = {}; [a] = b }')).toContain('{ } ;');
  });

  it('keeps the ; that ends a statement after a ternary holding an object', () => {
    expect(normalizeSource('() => { x = c ? {} : {}; [a] = b }')).toContain('{ } ;');
  });

  it('makes a line break after return a ;, where it ends the statement', () => {
    expect(normalizeSource('() => { return\nx }')).not.toBe(normalizeSource('() => { return x }'));
    expect(normalizeSource('() => { return\nx }')).toBe(normalizeSource('() => { return; x }'));
    expect(normalizeSource('() => { return (\nx) }')).toBe(normalizeSource('() => { return x }'));
  });
});

describe('normalizeSource on transpiler rewrites', () => {
  it("drops parentheses around one name or literal, an arrow's parameter included, but not a call's or a header's", () => {
    expect(normalizeSource('(x) => (y)')).toBe('x => y');
    expect(normalizeSource('async (x) => ((x))')).toBe('async x => x');
    expect(normalizeSource('f(x)')).toBe('f ( x )');
    expect(normalizeSource('function (x) { if (x) return (x); }')).toBe('function ( x ) { if ( x ) return x }');
    expect(normalizeSource('(a, b) => a?.(b)')).toBe('( a , b ) => a ?. ( b )');
  });

  it('reads void 0 as undefined, except where a member or call follows', () => {
    expect(normalizeSource('x ?? void 0')).toBe(normalizeSource('x ?? undefined'));
    expect(normalizeSource('void 0[x]')).toBe('void 0 [ x ]');
  });

  it("unwraps esbuild's __name helper in all three of its forms", () => {
    const plain =
      'x => { const d = y => y * 2; function t(z) { return z } const C = class { m() { return 1 } }; return d(t(x)) }';
    const named =
      'x=>{const d=__name(y=>y*2,"d");function t(z){return z}__name(t,"t");const C=class{static{__name(this,"C")}m(){return 1}};return d(t(x))}';
    expect(normalizeSource(named)).toBe(normalizeSource(plain));
    expect(normalizeSource('__name(__name(() => 1, "a"), "b")')).toBe('( ) => 1');
  });

  it("reads vite's SSR imports as the imported name, but not a call's own (0, f) arguments", () => {
    expect(normalizeSource('(0,__vite_ssr_import_0__.f)(x) + __vite_ssr_import_1__.g')).toBe('f ( x ) + g');
    expect(normalizeSource('h(0,__vite_ssr_import_0__.f)')).toBe('h ( 0 , f )');
    expect(normalizeSource('if (a) {}\n(0,__vite_ssr_import_0__.f)(x)')).toBe('if ( a ) { } f ( x )');
  });

  it('never throws, whatever it is given', () => {
    for (const text of ['"unterminated', '`open ${', '/* open', '/open', ')))}}}', '\\u0041', '#x', '', '0x']) {
      expect(typeof normalizeSource(text)).toBe('string');
    }
  });
});
