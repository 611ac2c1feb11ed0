import type { AgentBuild } from '../agent/index.js';
import type { DifferingSpan } from '../analysis/index.js';
import { VOLATILE_PATTERNS, differingSpans } from '../analysis/index.js';
import type { Message, ModelRequest } from '../conversation/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import { stableJson } from '../json/index.js';
import { modelRequestOf, startSnapshot } from '../driver/index.js';
import type { AgentRef } from '../read/index.js';

/** A clock and a seed the first request is built under. */
export interface LintEnvironment {
  readonly now: string;
  readonly seed: number;
}

/** One byte range of the first request that differs between the two builds of it. */
export interface LintFinding extends DifferingSpan {
  /** Where in the request: `system`, `messages[0].content[0].text`, `tools`, `params` or `model`. */
  readonly path: string;
  /** What the range looks like when it is a known kind of volatile value (`ISO 8601 timestamp`, `UUID`, ...). */
  readonly looksLike: string | null;
}

/** What the volatile-prompt lint found. */
export interface LintReport {
  readonly mode: 'lint';
  readonly agent: AgentRef;
  readonly input: JsonObject;
  readonly environments: readonly [LintEnvironment, LintEnvironment];
  /** Every differing range, in the order the provider reads the request (tools, system, messages). */
  readonly findings: readonly LintFinding[];
  /** True when anything differs: the first request must be byte-identical under any clock and seed. */
  readonly flagged: boolean;
  /** The request's bytes in the provider's order (tools, system, messages). */
  readonly requestBytes: number;
  /** How many of them come before the first difference: all that a prompt cache could reuse. */
  readonly stablePrefixBytes: number;
}

const ENVIRONMENTS: readonly [LintEnvironment, LintEnvironment] = [
  { now: '2026-03-04T09:00:00.000Z', seed: 1 },
  { now: '2026-03-05T17:31:07.123Z', seed: 2 },
];

/**
 * The volatile-prompt lint: builds a build's first model request twice, under
 * two clocks and two seeds, and reports every byte range that differs. Any
 * difference in the first request (the system prompt, the first messages)
 * changes every request hash of the run, so cassettes never match, and moves
 * the point where the provider's prompt cache, which matches on the same
 * prefix, stops matching.
 */
export function lintFirstRequest(agent: AgentBuild, input: JsonObject): LintReport {
  const [first, second] = ENVIRONMENTS.map((environment) => firstRequest(agent, input, environment)) as [
    ModelRequest,
    ModelRequest,
  ];
  const findings: LintFinding[] = [];
  const compareWhole = (path: string, a: JsonValue, b: JsonValue) =>
    findings.push(...findingsIn(path, stableJson(a), stableJson(b)));
  compareWhole('tools', first.tools, second.tools);
  findings.push(...findingsIn('system', first.system, second.system));
  first.messages.forEach((message, i) => {
    compareMessage(`messages[${i}]`, message, second.messages[i], findings);
  });
  compareWhole('model', first.model, second.model);
  compareWhole('params', first.params, second.params);
  const [a, b] = [first, second].map(providerOrder) as [string, string];
  let stable = 0;
  while (stable < a.length && stable < b.length && a[stable] === b[stable]) stable++;
  return {
    mode: 'lint',
    agent: { name: agent.name, build: agent.build, codeHash: agent.codeHash },
    input,
    environments: ENVIRONMENTS,
    findings,
    flagged: findings.length > 0,
    requestBytes: Buffer.byteLength(a),
    stablePrefixBytes: Buffer.byteLength(a.slice(0, stable)),
  };
}

function firstRequest(agent: AgentBuild, input: JsonObject, environment: LintEnvironment): ModelRequest {
  const snapshot = startSnapshot(agent, input, {
    clock: () => new Date(environment.now),
    random: seededRandom(environment.seed),
  });
  return modelRequestOf(agent, snapshot.context);
}

function compareMessage(path: string, message: Message, other: Message | undefined, findings: LintFinding[]): void {
  message.content.forEach((part, j) => {
    const otherPart = other?.content[j];
    const at = `${path}.content[${j}]`;
    if (part.type === 'text' && otherPart?.type === 'text') {
      findings.push(...findingsIn(`${at}.text`, part.text, otherPart.text));
      return;
    }
    findings.push(...findingsIn(at, stableJson(part), stableJson(otherPart ?? null)));
  });
}

/**
 * The ranges in which `b` differs from `a`, each widened to the whole volatile
 * value it falls in (a timestamp differs in a few digits, but it is the
 * timestamp that has to go), and merged where they then touch.
 */
function findingsIn(path: string, a: string, b: string): LintFinding[] {
  const widened = differingSpans(a, b).map((span) => {
    const left = volatileAround(a, span.start, span.end);
    const right = volatileAround(b, span.otherStart, span.otherEnd);
    return {
      start: Math.min(span.start, left?.start ?? span.start),
      end: Math.max(span.end, left?.end ?? span.end),
      otherStart: Math.min(span.otherStart, right?.start ?? span.otherStart),
      otherEnd: Math.max(span.otherEnd, right?.end ?? span.otherEnd),
      looksLike: left?.kind ?? right?.kind ?? null,
    };
  });
  const merged: Array<(typeof widened)[number]> = [];
  for (const span of widened) {
    const last = merged.at(-1);
    if (last !== undefined && span.start <= last.end) {
      merged[merged.length - 1] = {
        ...last,
        end: Math.max(last.end, span.end),
        otherEnd: Math.max(last.otherEnd, span.otherEnd),
        looksLike: last.looksLike ?? span.looksLike,
      };
    } else {
      merged.push(span);
    }
  }
  return merged.map((span) => ({
    path,
    ...span,
    before: a.slice(span.start, span.end),
    after: b.slice(span.otherStart, span.otherEnd),
  }));
}

// The volatile value of `text` that overlaps [start, end), if there is one.
function volatileAround(
  text: string,
  start: number,
  end: number,
): { start: number; end: number; kind: string } | undefined {
  for (const { name, pattern } of VOLATILE_PATTERNS) {
    for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags))) {
      const matchEnd = match.index + match[0].length;
      if (match.index < Math.max(end, start + 1) && matchEnd > start)
        return { start: match.index, end: matchEnd, kind: name };
    }
  }
  return undefined;
}

// The order a provider reads a request in, and so the order its prompt cache matches prefixes in.
const providerOrder = (request: ModelRequest): string =>
  `${stableJson(request.tools)}${request.system}${stableJson(request.messages)}`;

// A small seeded generator (mulberry32): the lint's two environments must be repeatable.
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
