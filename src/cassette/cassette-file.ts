import { isMessage, isModelResponse, isToolResponse } from '../conversation/index.js';
import { ForkpointError } from '../errors/index.js';
import type { JsonValue } from '../json/index.js';
import { stableJson, isJsonArray, isJsonObject, parseJsonInput } from '../json/index.js';
import type { Cassette } from './cassette.js';
import type { ExpansionLimits } from './shaped-strings.js';
import { compactShapedStrings, expandShapedStrings } from './shaped-strings.js';
import { instantOf } from '../time/index.js';
import { CASSETTE_FORMAT } from './cassette.js';
import { CASSETTE_FORMAT_1, upgradeCassette } from './cassette-upgrade.js';
import { SEALED_FORMAT } from './sealed-cassette.js';

/**
 * A cassette as a file: pretty-printed JSON with sorted keys and one entry per
 * position, so that a committed cassette diffs cleanly when it changes.
 */
export function serializeCassette(cassette: Cassette): string {
  if (cassette.tier === 'structural') return serializeStructural(cassette);
  return `${JSON.stringify(JSON.parse(stableJson(cassette)), null, 2)}\n`;
}

// A structural cassette is kept for 90 days, and nobody reads its `a*N` strings
// by eye: it is written compactly, still one entry per line for clean diffs.
function serializeStructural(cassette: Cassette): string {
  const { entries, ...rest } = JSON.parse(stableJson(compactShapedStrings(cassette))) as {
    entries: JsonValue[];
  };
  const head = JSON.stringify({ ...rest, entries: [] });
  const lines = entries.map((entry) => JSON.stringify(entry));
  return `${head.slice(0, head.indexOf('"entries":[') + 11)}\n${lines.join(',\n')}\n${head.slice(head.indexOf('"entries":[') + 11)}\n`;
}

const TIERS = new Set(['full', 'structural', 'synthetic']);

// A structural file expands to at most this many characters per string and in all: a bomb of
// `a*999999999`, or of a hundred `a*16777216`, is refused before it is built. The incident's whole full
// cassette is 36 KB; a structural one standing for 64 MiB of text is far past any real run.
const EXPANSION: ExpansionLimits = { perString: 16 * 1024 * 1024, total: 64 * 1024 * 1024 };

/**
 * Reads and checks a cassette file. Anything malformed (not JSON, truncated,
 * nested too deep, an unknown format version, a missing or mistyped field) is
 * `CASSETTE_INVALID`, naming what is wrong. A file of an older format is read
 * in the current one (see `upgradeCassette`).
 */
export function parseCassette(text: string, origin: string): Cassette {
  // A byte order mark is how some editors begin a UTF-8 file; it is not part of the JSON.
  const parsed = parseJsonInput(
    text.startsWith('\uFEFF') ? text.slice(1) : text,
    `cassette ${origin}`,
    'CASSETTE_INVALID',
  );
  const current = upgradeCassette(parsed);
  const value =
    isJsonObject(current) && current.tier === 'structural' ? expandShapedStrings(current, EXPANSION) : current;
  assertCassette(value, origin);
  return value;
}

// Every field of a cassette checked, each problem named: after it, the value is one.
function assertCassette(value: JsonValue, origin: string): asserts value is Cassette {
  const invalid = (problem: string) =>
    new ForkpointError('CASSETTE_INVALID', `cassette ${origin} is not usable: ${problem}`);
  if (!isJsonObject(value)) throw invalid('it is not a JSON object');
  if (value.format === SEALED_FORMAT) {
    throw new ForkpointError('CASSETTE_SEALED', `cassette ${origin} is sealed (encrypted with its store's key)`, {
      details: { path: origin, remedy: { kind: 'open-sealing-store' } },
    });
  }
  if (value.format !== CASSETTE_FORMAT) {
    throw invalid(
      `its format is ${JSON.stringify(value.format ?? null)}; this forkpoint reads ${CASSETTE_FORMAT} (and ${CASSETTE_FORMAT_1}, which it upgrades)`,
    );
  }
  const { agent, source, messages, entries, canonicalForm } = value;
  if (typeof canonicalForm !== 'string') throw invalid('canonicalForm is missing');
  if (!isJsonObject(agent) || ![agent.name, agent.build, agent.codeHash].every((field) => typeof field === 'string')) {
    throw invalid('agent must have a name, build and codeHash');
  }
  if (
    !isJsonObject(source) ||
    typeof source.runId !== 'string' ||
    !isJsonObject(source.input) ||
    typeof source.recordedAt !== 'string'
  ) {
    throw invalid('source must have a runId, input and recordedAt');
  }
  if (typeof source.status !== 'string') throw invalid('source.status must say how the recording ended');
  for (const field of ['outcome', 'error'] as const) {
    const held = source[field];
    if (held !== null && !isJsonObject(held)) throw invalid(`source.${field} must be an object or null`);
  }
  const { seed, worldAt } = source;
  if (
    seed !== undefined &&
    seed !== null &&
    !(typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)
  ) {
    throw invalid(`source.seed must be an integer from 0 to 4294967295 or null, got ${JSON.stringify(seed)}`);
  }
  if (
    worldAt !== undefined &&
    worldAt !== null &&
    !(typeof worldAt === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(worldAt))
  ) {
    throw invalid(`source.worldAt must be a date written YYYY-MM-DD or null, got ${JSON.stringify(worldAt)}`);
  }
  if (source.scenario !== undefined && source.scenario !== null && typeof source.scenario !== 'string')
    throw invalid('source.scenario must be a string or null');
  if (value.tier !== undefined && (typeof value.tier !== 'string' || !TIERS.has(value.tier)))
    throw invalid(`its tier is ${JSON.stringify(value.tier)}; tiers are full, structural and synthetic`);
  if (
    value.expiresAt !== undefined &&
    value.expiresAt !== null &&
    !(typeof value.expiresAt === 'string' && instantOf(value.expiresAt) !== undefined)
  ) {
    throw invalid(
      `expiresAt must be an ISO 8601 timestamp with a zone (like 2026-03-07T17:42:00.000Z) or null, got ${JSON.stringify(value.expiresAt)}`,
    );
  }
  if (value.loop !== undefined && value.loop !== 'wrapped')
    throw invalid(`its loop is ${JSON.stringify(value.loop)}; a cassette's loop is "wrapped" or absent (driven)`);
  if (value.plaintext !== undefined && typeof value.plaintext !== 'string')
    throw invalid('plaintext must be a sentence saying what the file is');
  const { seal } = value;
  if (
    seal !== undefined &&
    !(
      isJsonObject(seal) &&
      typeof seal.store === 'string' &&
      typeof seal.key === 'string' &&
      typeof seal.mac === 'string'
    )
  ) {
    throw invalid('seal must name its store, key and mac');
  }
  if (!isJsonArray(messages)) throw invalid('messages must be an array');
  messages.forEach((item, i) => {
    if (!isJsonObject(item) || typeof item.digest !== 'string' || !isMessage(item.message)) {
      throw invalid(`messages[${i}] is not a { digest, message } in the provider-neutral shape`);
    }
  });
  if (!isJsonArray(entries)) throw invalid('entries must be an array');
  let previousStep = 0;
  entries.forEach((entry, i) => {
    const problem = entryProblem(entry, previousStep);
    if (problem !== undefined) throw invalid(`entries[${i}] ${problem}`);
    if (isJsonObject(entry) && typeof entry.step === 'number') previousStep = entry.step;
  });
}

function entryProblem(entry: JsonValue, previousStep: number): string | undefined {
  if (!isJsonObject(entry)) return 'is not an object';
  const { step, kind, index, requestHash, request, response } = entry;
  if (typeof step !== 'number' || !Number.isInteger(step) || step <= previousStep)
    return 'has a step that is not the next in order';
  if (typeof kind !== 'string' || kind === '') return 'has no kind';
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) return 'has no index';
  if (typeof requestHash !== 'string' || !/^[0-9a-f]{16}$/.test(requestHash)) return 'has no 16-hex requestHash';
  if (request === undefined) return 'has no request';
  if (kind === 'model' ? !isModelResponse(response) : !isToolResponse(response)) {
    return `has a response that is not a ${kind === 'model' ? 'model response' : 'tool result { output, isError }'}`;
  }
  return undefined;
}
