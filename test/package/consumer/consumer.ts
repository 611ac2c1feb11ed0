// A user's project, type-checked against the packed package by test/package/consumer.test.ts with
// `skipLibCheck: false` and `exactOptionalPropertyTypes: true`: the root, forkpoint/sqlite, forkpoint/postgres,
// forkpoint/analysis, forkpoint/openai, forkpoint/otel, forkpoint/anthropic and forkpoint/ai-sdk, and their main entry
// points, with no types but the package's and its dependencies' (not even Node's). Each `@ts-expect-error` is a promise of the public types: the check fails once the
// error it expects is gone. Never run, only checked.
import {
  ERROR_CODES,
  ForkpointError,
  ReplayDivergence,
  createEngine,
  defineAgent,
  defineScenario,
  evaluateSynthetic,
  findCassetteFiles,
  isForkpointError,
  isJsonObject,
  loadScenario,
  loadSyntheticCases,
  parseCapturePolicy,
  parseForkOverride,
  sqliteStore,
  textOf,
  toolUsesOf,
} from 'forkpoint';
import type {
  AgentBuild,
  Cassette,
  Engine,
  ErrorCode,
  ForkResult,
  JsonObject,
  ModelProvider,
  ModelResponse,
  ParsedOutcome,
  RecordResult,
  ReexecutionResult,
  ReplayResult,
  RestoredCheckpoint,
  ResumeResult,
  RunView,
  Store,
  SyntheticSupport,
  ToolSpec,
  World,
} from 'forkpoint';
import { compareRuns, divergenceReport, lintFirstRequest, tallyDivergences } from 'forkpoint/analysis';
import type { DivergenceReport, LintReport, RunComparison } from 'forkpoint/analysis';
import { DEFAULT_DB_PATH, sqliteStore as sqliteStoreOfSubpath } from 'forkpoint/sqlite';
import type { SqliteStoreOptions, Synchronous } from 'forkpoint/sqlite';
import { DEFAULT_POSTGRES_SCHEMA, postgresStore } from 'forkpoint/postgres';
import type { PostgresPool, PostgresStoreOptions } from 'forkpoint/postgres';
import { fromOpenAIChat, fromOpenAIResponses } from 'forkpoint/openai';
import type { OpenAIChatClient, OpenAIResponsesClient } from 'forkpoint/openai';
import { exportRunSpans, sendRunSpans } from 'forkpoint/otel';
import type { RunSpans } from 'forkpoint/otel';
import { fromAnthropic } from 'forkpoint/anthropic';
import type { AnthropicClient } from 'forkpoint/anthropic';
import { fromAiSdk } from 'forkpoint/ai-sdk';
import type { AiSdkLanguageModel } from 'forkpoint/ai-sdk';

// @ts-expect-error: a checkpoint is restored only through the engine, which checks that its tier has not expired.
import { restoreCheckpoint } from 'forkpoint';
// @ts-expect-error: the package's folders are not reachable past its exports.
import { createAgentMachine } from 'forkpoint/dist/src/machine/index.js';

const lookUp: ToolSpec = {
  name: 'look_up',
  description: 'Looks a ticket up.',
  inputSchema: { type: 'object', properties: { ticket: { type: 'string' } }, required: ['ticket'] },
  readOnly: true,
};

const parseAnswer = (text: string): ParsedOutcome =>
  text === '' ? { ok: false, problem: 'no answer' } : { ok: true, outcome: { answer: text } };

const agent: AgentBuild = defineAgent({
  name: 'helpdesk',
  build: 'baseline',
  systemPrompt: 'You answer tickets.',
  model: 'some-model',
  params: { maxTokens: 512 },
  tools: [lookUp],
  stepCap: 8,
  renderInput: (input) => `Ticket ${String(input.ticket)}.`,
  parseOutcome: parseAnswer,
});

const answer = (content: ModelResponse['content'], stopReason: ModelResponse['stopReason']): ModelResponse => ({
  id: 'response-1',
  model: 'some-model',
  content,
  stopReason,
  usage: { inputTokens: 10, outputTokens: 5 },
});
const model: ModelProvider = {
  async respond(request) {
    const asked = request.messages.some((message) => toolUsesOf(message).length > 0);
    const said = request.messages.map((message) => textOf(message.content)).join(' ');
    return asked
      ? answer([{ type: 'text', text: `Solved: ${said.length}` }], 'end_turn')
      : answer([{ type: 'tool_use', id: 'call-1', name: 'look_up', input: { ticket: 'T-1' } }], 'tool_use');
  },
};
const world: World = { model, tools: { look_up: (input) => ({ ticket: input.ticket ?? null, open: true }) } };

// A client of a server that speaks OpenAI's APIs, with no SDK installed: the adapters' client types are structural.
const compatible: OpenAIChatClient & OpenAIResponsesClient = {
  chat: { completions: { create: (body) => Promise.resolve({ id: 'chat-1', model: body.model }) } },
  responses: { create: (body) => Promise.resolve({ id: 'response-1', model: body.model }) },
};
export const openAIWorlds: World[] = [
  { model: fromOpenAIChat(compatible), tools: world.tools },
  { model: fromOpenAIResponses(compatible), tools: world.tools },
];

const synchronous: Synchronous = 'FULL';
const options: SqliteStoreOptions = { path: DEFAULT_DB_PATH, synchronous };
const store: Store = sqliteStore(options);
const sameStore: Store = sqliteStoreOfSubpath({ path: ':memory:' });
const engine: Engine = createEngine({ store, clock: () => new Date('2026-03-04T09:00:00Z') });

// A team's store, on a URL or on a pool of the user's own (a `pg.Pool`; here one made by hand): typed by
// what the store calls on it, so that no `@types/pg` is needed.
const teamOptions: PostgresStoreOptions = {
  connectionString: 'postgres://forkpoint@db.internal:5432/forkpoint',
  schema: DEFAULT_POSTGRES_SCHEMA,
  synchronous,
};
export const teamStores = (pool: PostgresPool): Store[] => [
  postgresStore(teamOptions),
  postgresStore({ pool, readOnly: true, statementTimeoutMs: 10_000 }),
];
// @ts-expect-error: a pool must hand out clients.
postgresStore({ pool: { end: () => Promise.resolve() } });

export async function story(): Promise<string[]> {
  const recorded: RecordResult = await engine.record({ agent, world, input: { ticket: 'T-1' } });
  const checkpoint: RestoredCheckpoint = await engine.checkpoint(recorded.runId, 1);
  const cassette: Cassette = await engine.cassette(recorded.runId);
  const replay: ReplayResult = await engine.replay({ agent, cassette, mode: 'strict' });
  if (replay.status === 'diverged' && replay.divergence instanceof ReplayDivergence) throw replay.divergence;
  const again: ReexecutionResult = await engine.reexecute({
    sourceRunId: recorded.runId,
    agent,
    world,
  });
  // @ts-expect-error: a re-execution is not a replay.
  const mistaken: ReplayResult = again;
  const fork: ForkResult = await engine.fork<{ open: boolean }>({
    parentRunId: recorded.runId,
    atStep: 2,
    agent,
    world,
    edit: (draft) => {
      draft.open = false;
    },
    sideEffects: { tools: { look_up: 'refuse' } },
  });
  const overridden: ForkResult = await engine.fork({
    parentRunId: recorded.runId,
    atStep: 2,
    agent,
    world,
    override: parseForkOverride({ kind: 'tool-merge', patch: { open: false } }),
  });
  const resumed: ResumeResult = await engine.resume({ runId: fork.runId, agent, world });
  const kept = await engine.record({
    agent,
    world,
    input: { ticket: 'T-2' },
    capture: parseCapturePolicy('errors+sample:0.01'),
  });
  const exported = await engine.exportCassette(recorded.runId);
  const read: Cassette = await engine.readCassette(exported.text, 'helpdesk.cassette.json');
  const runs: RunView[] = [await engine.getRun(recorded.runId), await engine.getRun(replay.runId)];
  const [left, right] = runs as [RunView, RunView];
  const comparison: RunComparison = compareRuns(left, right, (step) => step.kind);
  const lint: LintReport = lintFirstRequest(agent, { ticket: 'T-1' });
  const report: DivergenceReport = await divergenceReport(engine, {
    runIds: [recorded.runId],
    plan: () => ({ agent, world: () => world }),
  });
  const table = tallyDivergences(report.rows.flatMap((row) => row.entries));
  await sameStore.close();
  return [
    checkpoint.value,
    read.source.runId,
    String(mistaken.mode),
    JSON.stringify(overridden.parent.override),
    resumed.resumed.after ?? 'none',
    String(kept.capture?.kept),
    String(comparison.firstDivergence?.step),
    String(lint.flagged),
    String(table.rows.length),
    ...findCassetteFiles('fixtures'),
  ];
}

const helpdeskSynthetic: SyntheticSupport = {
  parseCase: (value, file) => {
    if (!isJsonObject(value) || typeof value.id !== 'string')
      throw new ForkpointError('INPUT_INVALID', `${file}: no id`);
    const input: JsonObject = { ticket: value.id };
    return { id: value.id, file, narrative: '', paths: [], at: '2026-03-04', input, expected: {}, data: value };
  },
  openWorld: () => world,
  score: (testCase, result) => ({ pass: result.status === 'completed', expected: testCase.id, actual: result.status }),
};

export const scenario = defineScenario({
  name: 'helpdesk',
  description: 'Answers tickets.',
  builds: { baseline: agent },
  defaultBuild: 'baseline',
  inputFlags: { ticket: { description: 'the ticket id' } },
  inputFrom: (flags) => ({ ticket: flags.ticket ?? 'T-1' }),
  openWorld: () => world,
  synthetic: helpdeskSynthetic,
});

export async function evaluate(): Promise<number> {
  const cases = loadSyntheticCases('synthetic', helpdeskSynthetic);
  const evaluation = await evaluateSynthetic(engine, {
    support: helpdeskSynthetic,
    cases,
    agent,
    scenario: 'helpdesk',
    seed: 1,
  });
  const builtIn = await loadScenario('scenarios/claims-triage');
  return evaluation.cases.length + Object.keys(builtIn.builds).length;
}

export function codeOf(error: unknown): ErrorCode | undefined {
  return isForkpointError(error) ? error.code : ERROR_CODES.find((code) => code === String(error));
}

// The adapters take the user's own SDK objects, typed by what they call on them: no SDK's types needed.
export function providerWorlds(client: AnthropicClient, model: AiSdkLanguageModel): World[] {
  // @ts-expect-error: an object without messages.create is no Anthropic client.
  fromAnthropic({ messages: {} });
  // @ts-expect-error: a model of another specification (ai 7's v4) is not one fromAiSdk reads.
  fromAiSdk({ ...model, specificationVersion: 'v4' });
  return [
    { model: fromAnthropic(client, { metadata: { user_id: 'u-1' } }), tools: {} },
    { model: fromAiSdk(model, { maxRetries: 0 }), tools: {} },
  ];
}

// A run as OpenTelemetry spans, typed without the OpenTelemetry API's declarations (they name `console`).
export async function traceOf(runId: string): Promise<RunSpans> {
  const exported = await exportRunSpans(engine, runId, { content: 'reference' });
  await sendRunSpans(exported, { url: 'http://127.0.0.1:4318/v1/traces', timeoutMs: 1000 });
  // @ts-expect-error: content is reference or full, nothing else.
  await exportRunSpans(engine, runId, { content: 'everything' });
  return exported;
}

export { agent, createAgentMachine, restoreCheckpoint };
