import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { baseline, patched, supervised, timestamped } from '../../scenarios/claims-triage/index.js';
import { codeMaterial } from '../../src/agent/code-hash.js';
import type { AgentDefinition, ToolSpec } from '../../src/agent/index.js';
import type { JsonValue } from '../../src/json/index.js';
import { CODE_HASH_FORM, codeHashOf } from '../../src/agent/index.js';
import { stableJson } from '../../src/json/index.js';
import { sha256Hex } from '../../src/json/index.js';
import { testAgent } from '../support/test-agents.js';
import { CLAIMS_HOOKS } from './measured-sources.js';

const DIST_BUILDS = fileURLToPath(new URL('../../dist/scenarios/claims-triage/builds.js', import.meta.url));

const echo: ToolSpec = {
  name: 'echo',
  description: 'echoes its input',
  inputSchema: { type: 'object' },
  readOnly: true,
};

// A function that reports `source` as its text, as if a transpiler had printed it so.
function printedAs<F extends (...args: never[]) => unknown>(fn: F, source: string): F {
  return Object.assign(fn, { toString: () => source });
}

function definitionOf(overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  const { codeHash: _codeHash, ...definition } = testAgent();
  return { ...definition, ...overrides };
}

describe('codeHashOf', () => {
  it('hashes the canonical JSON of its material, which names the form', () => {
    const definition = definitionOf();
    expect(CODE_HASH_FORM).toBe('forkpoint-code/2');
    expect(codeMaterial(definition).codeHashForm).toBe(CODE_HASH_FORM);
    expect(codeHashOf(definition)).toBe(sha256Hex(stableJson(codeMaterial(definition)), 16));
  });

  it('gives the claims hooks one hash whether tsc, vitest or tsx printed them', () => {
    const hooks = ['tsc', 'vitest', 'tsx'] as const;
    const hashes = hooks.map((printer) => {
      const measured = (hook: string): string => {
        const source = CLAIMS_HOOKS[hook]?.[printer];
        if (source === undefined) throw new Error(`no measured ${hook}`);
        return source;
      };
      return codeHashOf({
        ...baseline,
        systemPrompt: printedAs(() => '', measured('timestampedPrompt')),
        renderInput: printedAs(() => '', measured('renderInput')),
        retryTool: printedAs(() => false, measured('retryTool')),
        guardToolResult: printedAs(() => ({ action: 'continue' }), measured('guardToolResult')),
        parseOutcome: printedAs(() => ({ ok: false, problem: '' }), measured('parseOutcome')),
        validateOutcome: printedAs(() => [], measured('validateOutcome')),
      });
    });
    expect(new Set(hashes).size).toBe(1);
  });

  it('still tells hooks apart whose code differs', () => {
    const a = definitionOf({ renderInput: (input) => `Run ${JSON.stringify(input.id)}` });
    const b = definitionOf({ renderInput: (input) => `Run ${JSON.stringify(input.key)}` });
    expect(codeHashOf(a)).not.toBe(codeHashOf(b));
  });
});

describe('a tool spec in the code hash', () => {
  it('without a simulator stands as the spec itself, as before simulators existed', () => {
    const material = codeMaterial(definitionOf({ tools: [echo] }));
    expect(material.tools).toEqual([{ ...echo }]);
  });

  it('with a simulator stands with its normalised source, which canonical JSON alone would leave out', () => {
    const simulate = (): JsonValue => ({ echoed: true });
    expect(stableJson({ simulate } as unknown as JsonValue)).toBe('{}');
    const material = codeMaterial(definitionOf({ tools: [{ ...echo, simulate }] }));
    expect(material.tools).toEqual([{ ...echo, simulate: '( ) => ( { echoed : true } )' }]);
  });

  it('changes the hash with its simulator, but not with how the simulator is printed', () => {
    const hashWith = (simulate?: ToolSpec['simulate']): string =>
      codeHashOf(definitionOf({ tools: [simulate === undefined ? echo : { ...echo, simulate }] }));
    const echoing = hashWith((call) => call.input);
    expect(echoing).not.toBe(hashWith());
    expect(echoing).not.toBe(hashWith((call) => call.step));
    expect(hashWith(printedAs(() => null, 'call=>call.input'))).toBe(echoing);
  });
});

describe('the claims builds', () => {
  it('have the code hashes under vitest that they have compiled by tsc and run by node', () => {
    expect(existsSync(DIST_BUILDS), `${DIST_BUILDS} is missing: run npm run build`).toBe(true);
    const script = `const b = await import(${JSON.stringify(DIST_BUILDS)});
      console.log(JSON.stringify([b.baseline.codeHash, b.patched.codeHash, b.timestamped.codeHash, b.supervised.codeHash]));`;
    const compiled: unknown = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    );
    // A mismatch after editing the builds may only mean dist/ is stale: npm run build.
    expect(compiled).toEqual([baseline.codeHash, patched.codeHash, timestamped.codeHash, supervised.codeHash]);
  });
});
