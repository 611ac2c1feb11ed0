// Function.prototype.toString() of the same functions, measured under the three ways this repository runs
// TypeScript: tsc 6 (`npm run build`, then node on dist/), vitest 4.1 (vite 8, oxc) and tsx 4.23 (esbuild,
// an ESM entry). Pasted verbatim; regenerate by printing `hook.toString()` under each.

/** How one function's source reads under each transpiler. */
export interface MeasuredSource {
  readonly tsc: string;
  readonly vitest: string;
  readonly tsx: string;
}

/** The claims-triage hooks of scenarios/claims-triage (builds.ts and outcome.ts). */
export const CLAIMS_HOOKS: { readonly [hook: string]: MeasuredSource } = {
  renderInput: {
    tsc: '(input) => `Triage claim ${String(input.claimId)} and write your decision.`',
    vitest: '(input) => `Triage claim ${String(input.claimId)} and write your decision.`',
    tsx: 'input=>`Triage claim ${String(input.claimId)} and write your decision.`',
  },
  retryTool: {
    tsc: "(failed) => {\n        if (failed.call.name !== 'ocr_document' || failed.attempt > 2)\n            return false;\n        const output = failed.response.output;\n        return isJsonObject(output) && output.retryable === true;\n    }",
    vitest:
      '(failed) => {\n\t\tif (failed.call.name !== "ocr_document" || failed.attempt > 2) return false;\n\t\tconst output = failed.response.output;\n\t\treturn (0,__vite_ssr_import_0__.isJsonObject)(output) && output.retryable === true;\n\t}',
    tsx: 'failed=>{if(failed.call.name!=="ocr_document"||failed.attempt>2)return false;const output=failed.response.output;return isJsonObject(output)&&output.retryable===true}',
  },
  guardToolResult: {
    tsc: "(check) => {\n        const minimum = 0.55;\n        if (check.call.name !== 'ocr_document' || check.response.isError)\n            return { action: 'continue' };\n        const output = check.response.output;\n        const fields = isJsonObject(output) ? output.fields : undefined;\n        if (!isJsonObject(fields))\n            return { action: 'continue' };\n        for (const [name, field] of Object.entries(fields)) {\n            const confidence = isJsonObject(field) ? field.confidence : undefined;\n            if (typeof confidence === 'number' && confidence < minimum) {\n                return {\n                    action: 'finish',\n                    outcome: {\n                        decision: 'refer',\n                        payout: null,\n                        reason: `OCR read ${name} at confidence ${confidence} (below ${minimum}); referred to a human assessor.`,\n                    },\n                };\n            }\n        }\n        return { action: 'continue' };\n    }",
    vitest:
      '(check) => {\n\t\tconst minimum = .55;\n\t\tif (check.call.name !== "ocr_document" || check.response.isError) return { action: "continue" };\n\t\tconst output = check.response.output;\n\t\tconst fields = (0,__vite_ssr_import_0__.isJsonObject)(output) ? output.fields : undefined;\n\t\tif (!(0,__vite_ssr_import_0__.isJsonObject)(fields)) return { action: "continue" };\n\t\tfor (const [name, field] of Object.entries(fields)) {\n\t\t\tconst confidence = (0,__vite_ssr_import_0__.isJsonObject)(field) ? field.confidence : undefined;\n\t\t\tif (typeof confidence === "number" && confidence < minimum) {\n\t\t\t\treturn {\n\t\t\t\t\taction: "finish",\n\t\t\t\t\toutcome: {\n\t\t\t\t\t\tdecision: "refer",\n\t\t\t\t\t\tpayout: null,\n\t\t\t\t\t\treason: `OCR read ${name} at confidence ${confidence} (below ${minimum}); referred to a human assessor.`\n\t\t\t\t\t}\n\t\t\t\t};\n\t\t\t}\n\t\t};\n\t\treturn { action: "continue" };\n\t}',
    tsx: 'check=>{const minimum=.55;if(check.call.name!=="ocr_document"||check.response.isError)return{action:"continue"};const output=check.response.output;const fields=isJsonObject(output)?output.fields:void 0;if(!isJsonObject(fields))return{action:"continue"};for(const[name,field]of Object.entries(fields)){const confidence=isJsonObject(field)?field.confidence:void 0;if(typeof confidence==="number"&&confidence<minimum){return{action:"finish",outcome:{decision:"refer",payout:null,reason:`OCR read ${name} at confidence ${confidence} (below ${minimum}); referred to a human assessor.`}}}}return{action:"continue"}}',
  },
  timestampedPrompt: {
    tsc: '({ now }) => `${SYSTEM_PROMPT}\\nCurrent time: ${now.toISOString()}`',
    vitest: '({ now }) => `${SYSTEM_PROMPT}\\nCurrent time: ${now.toISOString()}`',
    tsx: '({now})=>`${SYSTEM_PROMPT}\nCurrent time: ${now.toISOString()}`',
  },
  parseOutcome: {
    tsc: "function parseDecision(text) {\n    const value = lastJsonObject(text);\n    if (value === undefined)\n        return { ok: false, problem: 'the final turn holds no JSON decision object' };\n    const { decision, payout, reason } = value;\n    if (typeof decision !== 'string' || !DECISIONS.has(decision))\n        return { ok: false, problem: `unknown decision ${JSON.stringify(decision)}` };\n    if (payout !== null && typeof payout !== 'number')\n        return { ok: false, problem: 'payout must be a number or null' };\n    if (typeof reason !== 'string')\n        return { ok: false, problem: 'reason must be a string' };\n    return { ok: true, outcome: { decision, payout, reason } };\n}",
    vitest:
      'function parseDecision(text) {\n\tconst value = lastJsonObject(text);\n\tif (value === undefined) return {\n\t\tok: false,\n\t\tproblem: "the final turn holds no JSON decision object"\n\t};\n\tconst { decision, payout, reason } = value;\n\tif (typeof decision !== "string" || !DECISIONS.has(decision)) return {\n\t\tok: false,\n\t\tproblem: `unknown decision ${JSON.stringify(decision)}`\n\t};\n\tif (payout !== null && typeof payout !== "number") return {\n\t\tok: false,\n\t\tproblem: "payout must be a number or null"\n\t};\n\tif (typeof reason !== "string") return {\n\t\tok: false,\n\t\tproblem: "reason must be a string"\n\t};\n\treturn {\n\t\tok: true,\n\t\toutcome: {\n\t\t\tdecision,\n\t\t\tpayout,\n\t\t\treason\n\t\t}\n\t};\n}',
    tsx: 'function parseDecision(text){const value=lastJsonObject(text);if(value===void 0)return{ok:false,problem:"the final turn holds no JSON decision object"};const{decision,payout,reason}=value;if(typeof decision!=="string"||!DECISIONS.has(decision))return{ok:false,problem:`unknown decision ${JSON.stringify(decision)}`};if(payout!==null&&typeof payout!=="number")return{ok:false,problem:"payout must be a number or null"};if(typeof reason!=="string")return{ok:false,problem:"reason must be a string"};return{ok:true,outcome:{decision,payout,reason}}}',
  },
  validateOutcome: {
    tsc: "function validateDecision(outcome) {\n    const { decision, payout } = outcome;\n    if (decision === 'approve') {\n        if (typeof payout !== 'number')\n            return ['an approval must state a payout'];\n        if (payout < 0)\n            return [`payout ${payout} is negative: an approval cannot pay less than nothing`];\n        return [];\n    }\n    return payout === null ? [] : [`a ${String(decision)} decision must not pay (payout ${String(payout)})`];\n}",
    vitest:
      'function validateDecision(outcome) {\n\tconst { decision, payout } = outcome;\n\tif (decision === "approve") {\n\t\tif (typeof payout !== "number") return ["an approval must state a payout"];\n\t\tif (payout < 0) return [`payout ${payout} is negative: an approval cannot pay less than nothing`];\n\t\treturn [];\n\t};\n\treturn payout === null ? [] : [`a ${String(decision)} decision must not pay (payout ${String(payout)})`];\n}',
    tsx: 'function validateDecision(outcome){const{decision,payout}=outcome;if(decision==="approve"){if(typeof payout!=="number")return["an approval must state a payout"];if(payout<0)return[`payout ${payout} is negative: an approval cannot pay less than nothing`];return[]}return payout===null?[]:[`a ${String(decision)} decision must not pay (payout ${String(payout)})`]}',
  },
};

/**
 * Shapes of hook code written to provoke each difference, from this TypeScript module (its imports were
 * `isJsonObject as isObj, canonicalJson` and `* as json` from src/json; `LIMIT` a module constant):
 *
 * export const shapes: Record<string, (...args: never[]) => unknown> = {
 *   inner: (x: number): number => {
 *     // a line comment
 *     const double = (y: number) => y * 2; /* block *\/
 *     function triple(z: number): number { return z * 3; }
 *     const C = class { m(): number { return 1; } };
 *     return double(x) + triple(x) + new C().m();
 *   },
 *   strings: () => ['it\'s', "a\"b", '\u00e9', 'é', '\x41', 'line\
 * cont', 'tab\there', '\0', "// not a comment", '/* nor this *\/', `back\`tick`, `\${not}`, `n\nl`, String.raw`r\n${LIMIT}`, `a${`b${1}`}c`],
 *   regex: (s: string) => /a\/b[/]c/g.test(s) && s.replace(/\s+/gu, ' '),
 *   numbers: () => [1_000, 0x1F, 1e3, .5, 5., 10n, 0.10, 1E-7],
 *   casts: (input: JsonObject, b: Box | undefined) => {
 *     const a = (input as { claimId: string }).claimId;
 *     const c = (<JsonObject>input).x;
 *     const d = b!.v;
 *     const e = input satisfies JsonObject;
 *     return [a, c, d, e, b?.v ?? undefined, (a), (a + 'x').length, (void 0)];
 *   },
 *   generic: <T,>(x: T): T => x,
 *   imports: (v: unknown) => [isObj(v), canonicalJson(null), json.isJsonObject(v), [v].filter(isObj)],
 *   trailing: (a: number, b: number,) => ({ a, b, }),
 *   arrays: () => [[1, 2, ], [, ], [1, , ]],
 *   asyncy: async (p: Promise<number>) => { const v = await p; for await (const x of [p]) { void x; } return v; },
 *   blocks: (n: number) => {
 *     let total = 0;
 *     for (let i = 0; i < n; i++) { total += i; }
 *     if (n > LIMIT) { total = 0; } else if (n < 0) { total = -1; }
 *     while (total > 100) { total -= 1; }
 *     try { total++; } catch (e) { total--; } finally { total *= 1; }
 *     switch (n) { case 1: total = 1; break; default: total = 2; }
 *     label: { break label; }
 *     return total;
 *   },
 *   objects: (x: number) => ({ get g() { return x; }, ['k' + x]: 1, m() { return this; }, 'quoted-key': 2, "dq": 3, 4: 5 }),
 *   precedence: (a: number, b: number) => (a + b) * (a - b) / -(-a) + (a ** 2) + (typeof a === 'number' ? 1 : 2),
 *   optional: (o?: { f?: () => number }) => o?.f?.() ?? 0,
 *   defaults: ({ a = 1, b: { c } = { c: 2 } }: { a?: number; b?: { c: number } } = {}, ...rest: number[]) => a + c + rest.length,
 *   single: (x) => x,
 *   noparens: x => x,
 *   parenthesized: (x: number) => { return (x); },
 *   objectBody: (x: number) => ({ x }),
 *   unicode: () => 'ü€😀',
 *   emptyStatement: () => { ; },
 */
export const SHAPES: { readonly [shape: string]: MeasuredSource } = {
  inner: {
    tsc: '(x) => {\n        // a line comment\n        const double = (y) => y * 2; /* block */\n        function triple(z) { return z * 3; }\n        const C = class {\n            m() { return 1; }\n        };\n        return double(x) + triple(x) + new C().m();\n    }',
    vitest:
      '(x) => {\n\t\t// a line comment\n\t\tconst double = (y) => y * 2;\n\t\tfunction triple(z) {\n\t\t\treturn z * 3;\n\t\t}\n\t\tconst C = class {\n\t\t\tm() {\n\t\t\t\treturn 1;\n\t\t\t}\n\t\t};\n\t\treturn double(x) + triple(x) + new C().m();\n\t}',
    tsx: 'x=>{const double=__name(y=>y*2,"double");function triple(z){return z*3}__name(triple,"triple");const C=class{static{__name(this,"C")}m(){return 1}};return double(x)+triple(x)+new C().m()}',
  },
  strings: {
    tsc: "() => ['it\\'s', \"a\\\"b\", '\\u00e9', 'é', '\\x41', 'line\\\ncont', 'tab\\there', '\\0', \"// not a comment\", '/* nor this */', `back\\`tick`, `\\${not}`, `n\\nl`, String.raw `r\\n${LIMIT}`, `a${`b${1}`}c`]",
    vitest:
      '() => [\n\t\t"it\'s",\n\t\t"a\\"b",\n\t\t"é",\n\t\t"é",\n\t\t"A",\n\t\t"linecont",\n\t\t"tab\there",\n\t\t"\\0",\n\t\t"// not a comment",\n\t\t"/* nor this */",\n\t\t`back\\`tick`,\n\t\t`\\${not}`,\n\t\t`n\\nl`,\n\t\tString.raw`r\\n${LIMIT}`,\n\t\t`a${`b${1}`}c`\n\t]',
    tsx: '()=>["it\'s",\'a"b\',"\\xE9","\\xE9","A","linecont","tab\there","\\0","// not a comment","/* nor this */",`back\\`tick`,`\\${not}`,`n\nl`,String.raw`r\\n${LIMIT}`,`a${`b${1}`}c`]',
  },
  regex: {
    tsc: "(s) => /a\\/b[/]c/g.test(s) && s.replace(/\\s+/gu, ' ')",
    vitest: '(s) => /a\\/b[/]c/g.test(s) && s.replace(/\\s+/gu, " ")',
    tsx: 's=>/a\\/b[/]c/g.test(s)&&s.replace(/\\s+/gu," ")',
  },
  numbers: {
    tsc: '() => [1_000, 0x1F, 1e3, .5, 5., 10n, 0.10, 1E-7]',
    vitest: '() => [\n\t\t1e3,\n\t\t31,\n\t\t1e3,\n\t\t.5,\n\t\t5,\n\t\t10n,\n\t\t.1,\n\t\t1e-7\n\t]',
    tsx: '()=>[1e3,31,1e3,.5,5,10n,.1,1e-7]',
  },
  casts: {
    tsc: "(input, b) => {\n        const a = input.claimId;\n        const c = input.x;\n        const d = b.v;\n        const e = input;\n        return [a, c, d, e, b?.v ?? undefined, (a), (a + 'x').length, (void 0)];\n    }",
    vitest:
      '(input, b) => {\n\t\tconst a = input.claimId;\n\t\tconst c = input.x;\n\t\tconst d = b.v;\n\t\tconst e = input;\n\t\treturn [\n\t\t\ta,\n\t\t\tc,\n\t\t\td,\n\t\t\te,\n\t\t\tb?.v ?? undefined,\n\t\t\ta,\n\t\t\t(a + "x").length,\n\t\t\tvoid 0\n\t\t];\n\t}',
    tsx: '(input,b)=>{const a=input.claimId;const c=input.x;const d=b.v;const e=input;return[a,c,d,e,b?.v??void 0,a,(a+"x").length,void 0]}',
  },
  generic: {
    tsc: '(x) => x',
    vitest: '(x) => x',
    tsx: 'x=>x',
  },
  imports: {
    tsc: '(v) => [isObj(v), canonicalJson(null), json.isJsonObject(v), [v].filter(isObj)]',
    vitest:
      '(v) => [\n\t\t(0,__vite_ssr_import_0__.isJsonObject)(v),\n\t\t(0,__vite_ssr_import_0__.canonicalJson)(null),\n\t\t__vite_ssr_import_1__.isJsonObject(v),\n\t\t[v].filter((0,__vite_ssr_import_0__.isJsonObject))\n\t]',
    tsx: 'v=>[isObj(v),canonicalJson(null),json.isJsonObject(v),[v].filter(isObj)]',
  },
  trailing: {
    tsc: '(a, b) => ({ a, b, })',
    vitest: '(a, b) => ({\n\t\ta,\n\t\tb\n\t})',
    tsx: '(a,b)=>({a,b})',
  },
  arrays: {
    tsc: '() => [[1, 2,], [,], [1, ,]]',
    vitest: '() => [\n\t\t[1, 2],\n\t\t[,],\n\t\t[1, ,]\n\t]',
    tsx: '()=>[[1,2],[,],[1,,]]',
  },
  asyncy: {
    tsc: 'async (p) => { const v = await p; for await (const x of [p]) {\n        void x;\n    } return v; }',
    vitest:
      'async (p) => {\n\t\tconst v = await p;\n\t\tfor await (const x of [p]) {\n\t\t\tvoid x;\n\t\t};\n\t\treturn v;\n\t}',
    tsx: 'async p=>{const v=await p;for await(const x of[p]){void x}return v}',
  },
  blocks: {
    tsc: '(n) => {\n        let total = 0;\n        for (let i = 0; i < n; i++) {\n            total += i;\n        }\n        if (n > LIMIT) {\n            total = 0;\n        }\n        else if (n < 0) {\n            total = -1;\n        }\n        while (total > 100) {\n            total -= 1;\n        }\n        try {\n            total++;\n        }\n        catch (e) {\n            total--;\n        }\n        finally {\n            total *= 1;\n        }\n        switch (n) {\n            case 1:\n                total = 1;\n                break;\n            default: total = 2;\n        }\n        label: {\n            break label;\n        }\n        return total;\n    }',
    vitest:
      '(n) => {\n\t\tlet total = 0;\n\t\tfor (let i = 0; i < n; i++) {\n\t\t\ttotal += i;\n\t\t};\n\t\tif (n > LIMIT) {\n\t\t\ttotal = 0;\n\t\t} else if (n < 0) {\n\t\t\ttotal = -1;\n\t\t};\n\t\twhile (total > 100) {\n\t\t\ttotal -= 1;\n\t\t};\n\t\ttry {\n\t\t\ttotal++;\n\t\t} catch (e) {\n\t\t\ttotal--;\n\t\t} finally {\n\t\t\ttotal *= 1;\n\t\t};\n\t\tswitch (n) {\n\t\t\tcase 1:\n\t\t\t\ttotal = 1;\n\t\t\t\tbreak;\n\t\t\tdefault: total = 2;\n\t\t};\n\t\tlabel: {\n\t\t\tbreak label;\n\t\t};\n\t\treturn total;\n\t}',
    tsx: 'n=>{let total=0;for(let i=0;i<n;i++){total+=i}if(n>LIMIT){total=0}else if(n<0){total=-1}while(total>100){total-=1}try{total++}catch(e){total--}finally{total*=1}switch(n){case 1:total=1;break;default:total=2}label:{break label}return total}',
  },
  objects: {
    tsc: "(x) => ({ get g() { return x; }, ['k' + x]: 1, m() { return this; }, 'quoted-key': 2, \"dq\": 3, 4: 5 })",
    vitest:
      '(x) => ({\n\t\tget g() {\n\t\t\treturn x;\n\t\t},\n\t\t["k" + x]: 1,\n\t\tm() {\n\t\t\treturn this;\n\t\t},\n\t\t"quoted-key": 2,\n\t\t"dq": 3,\n\t\t4: 5\n\t})',
    tsx: 'x=>({get g(){return x},["k"+x]:1,m(){return this},"quoted-key":2,"dq":3,4:5})',
  },
  precedence: {
    tsc: "(a, b) => (a + b) * (a - b) / -(-a) + (a ** 2) + (typeof a === 'number' ? 1 : 2)",
    vitest: '(a, b) => (a + b) * (a - b) / - -a + a ** 2 + (typeof a === "number" ? 1 : 2)',
    tsx: '(a,b)=>(a+b)*(a-b)/- -a+a**2+(typeof a==="number"?1:2)',
  },
  optional: {
    tsc: '(o) => o?.f?.() ?? 0',
    vitest: '(o) => o?.f?.() ?? 0',
    tsx: 'o=>o?.f?.()??0',
  },
  defaults: {
    tsc: '({ a = 1, b: { c } = { c: 2 } } = {}, ...rest) => a + c + rest.length',
    vitest: '({ a = 1, b: { c } = { c: 2 } } = {}, ...rest) => a + c + rest.length',
    tsx: '({a=1,b:{c}={c:2}}={},...rest)=>a+c+rest.length',
  },
  single: {
    tsc: '(x) => x',
    vitest: '(x) => x',
    tsx: 'x=>x',
  },
  noparens: {
    tsc: 'x => x',
    vitest: '(x) => x',
    tsx: 'x=>x',
  },
  parenthesized: {
    tsc: '(x) => { return (x); }',
    vitest: '(x) => {\n\t\treturn x;\n\t}',
    tsx: 'x=>{return x}',
  },
  objectBody: {
    tsc: '(x) => ({ x })',
    vitest: '(x) => ({ x })',
    tsx: 'x=>({x})',
  },
  unicode: {
    tsc: "() => 'ü€😀'",
    vitest: '() => "ü€😀"',
    tsx: '()=>"\\xFC\\u20AC\\u{1F600}"',
  },
  emptyStatement: {
    tsc: '() => { ; }',
    vitest: '() => {\n\t\t;\n\t}',
    tsx: '()=>{;}',
  },
  declared: {
    tsc: 'function declared(x) { return x + LIMIT; }',
    vitest: 'function declared(x) {\n\treturn x + LIMIT;\n}',
    tsx: 'function declared(x){return x+LIMIT}',
  },
};

/**
 * `retryTool` under tsx when a CommonJS entry loads the ESM source: esbuild then writes the imported
 * `isJsonObject` as `import_src.isJsonObject`, a rewrite the normal form does not undo.
 */
export const RETRY_TOOL_UNDER_TSX_COMMONJS =
  'failed=>{if(failed.call.name!=="ocr_document"||failed.attempt>2)return false;const output=failed.response.output;return(0,import_src.isJsonObject)(output)&&output.retryable===true}';
