import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import scenario from '../../../scenarios/claims-triage/index.js';
import type { AgentBuild } from '../../../src/agent/index.js';
import type { JsonObject, JsonValue } from '../../../src/json/index.js';
import type { RecordResult } from '../../../src/modes/index.js';
import type { SyntheticCase, SyntheticSupport } from '../../../src/scenario/index.js';
import { createEngine } from '../../../src/engine/index.js';
import { isJsonObject } from '../../../src/json/index.js';
import { sqliteStore } from '../../../src/store/index.js';

/** The directory of the hand-written synthetic claims. */
export const SYNTHETIC_DIR = fileURLToPath(new URL('../../../scenarios/claims-triage/synthetic/', import.meta.url));

/** The scenario's synthetic support, failing when the scenario does not wire one in. */
export function synthetic(): SyntheticSupport {
  if (scenario.synthetic === undefined) throw new Error('claims-triage has no synthetic support');
  return scenario.synthetic;
}

/** Every case file's name and JSON, in name order. */
export function caseFiles(): { readonly file: string; readonly value: JsonValue }[] {
  return readdirSync(SYNTHETIC_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((file) => ({ file, value: JSON.parse(readFileSync(`${SYNTHETIC_DIR}${file}`, 'utf8')) as JsonValue }));
}

/** Every case, parsed. */
export const loadCases = (): SyntheticCase[] =>
  caseFiles().map(({ file, value }) => synthetic().parseCase(value, file));

/** A copy of a case file's JSON, for tests to break. */
export function caseJson(file: string): JsonObject {
  const found = caseFiles().find((entry) => entry.file === file);
  if (found === undefined || !isJsonObject(found.value)) throw new Error(`no case file ${file}`);
  return structuredClone(found.value);
}

/** Records one case with `agent` on a fresh in-memory store, in the case's own world on its day. */
export function recordCase(testCase: SyntheticCase, agent: AgentBuild, seed = 1): Promise<RecordResult> {
  const engine = createEngine({ store: sqliteStore({ path: ':memory:' }) });
  return engine.record({
    agent,
    world: synthetic().openWorld(testCase, { at: testCase.at, seed, latencyMs: 0 }),
    input: testCase.input,
  });
}

/** The documents of a case as written. */
export function documentsOf(testCase: SyntheticCase): JsonObject[] {
  const documents = testCase.data.documents;
  return Array.isArray(documents) ? documents.filter(isJsonObject) : [];
}
