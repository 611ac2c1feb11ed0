import { describe, expect, it } from 'vitest';

// The values each entry point exports (types are free). A name added or dropped here is a change of the
// public API: say why in the README's library section.
const ROOT = [
  'ERROR_CODES',
  'ForkpointError',
  'RecordedToolError',
  'ReplayDivergence',
  'SHIPPED_PRICES',
  'createEngine',
  'createSession',
  'defineAgent',
  'definePriceTable',
  'defineScenario',
  'evaluateSynthetic',
  'findCassetteFiles',
  'isForkpointError',
  'isJsonObject',
  'loadScenario',
  'loadSyntheticCases',
  'memoryStore',
  'mergePriceTables',
  'openStore',
  'parseCapturePolicy',
  'parseForkOverride',
  'parsePriceTable',
  'replayDivergenceIn',
  'routeModels',
  'runSuite',
  'sqliteStore',
  'textOf',
  'toolUsesOf',
  'verifyRun',
];
const SQLITE = ['DEFAULT_DB_PATH', 'sqliteStore'];
const POSTGRES = ['DEFAULT_POSTGRES_SCHEMA', 'postgresStore'];
const OPENAI = ['fromOpenAIChat', 'fromOpenAIResponses'];
const ANALYSIS = [
  'DIVERGENCE_SOURCES',
  'SIGNATURE_VERSION',
  'classifyDivergence',
  'compareRuns',
  'diffJson',
  'divergenceReport',
  'endingWords',
  'leadWords',
  'lintFirstRequest',
  'probeDrift',
  'runClasses',
  'signatureOf',
  'similarRuns',
  'tallyDivergences',
  'trajectoryWords',
  'typeSkeleton',
];

const OTEL = [
  'DEFAULT_OTLP_TIMEOUT_MS',
  'ERROR_TYPE',
  'FORKPOINT',
  'GEN_AI',
  'GEN_AI_OPERATION',
  'exportRunSpans',
  'sendRunSpans',
  'spanIdOf',
  'traceIdOf',
];

const TESTING = [
  'SAMPLE_OWNER_TOKEN',
  'checkCalled',
  'checkCalledWith',
  'checkStepsAtMost',
  'checkStrictReplay',
  'checkTrajectory',
  'checkWrappedReplay',
  'describeCassettes',
  'describeProviderConformance',
  'describeStoreConformance',
  'describeTransportConformance',
  'describeWrappedCassettes',
  'forkpointMatchers',
  'printTrajectory',
  'readFixture',
  'sampleRun',
  'sampleStep',
  'toolCallsOf',
  'trajectoryOf',
  'transportFixture',
];

const ANTHROPIC = ['fromAnthropic'];
const AI_SDK = ['fromAiSdk'];

const valuesOf = (module: object): string[] => Object.keys(module).sort();

describe('the public API', () => {
  it('has a small root: the engine, its stores, what declares an agent, a world and a scenario, the error', async () => {
    expect(valuesOf(await import('../../src/index.js'))).toEqual([...ROOT].sort());
  });

  it('has forkpoint/sqlite, forkpoint/postgres, forkpoint/analysis and forkpoint/openai for the rest', async () => {
    expect(valuesOf(await import('../../src/entries/sqlite.js'))).toEqual(SQLITE);
    expect(valuesOf(await import('../../src/entries/postgres.js'))).toEqual(POSTGRES);
    expect(valuesOf(await import('../../src/entries/analysis.js'))).toEqual(ANALYSIS);
    expect(valuesOf(await import('../../src/entries/openai.js'))).toEqual(OPENAI);
    expect(valuesOf(await import('../../src/entries/otel.js'))).toEqual(OTEL);
  });

  it('has forkpoint/anthropic and forkpoint/ai-sdk for the model provider adapters, one function each', async () => {
    expect(valuesOf(await import('../../src/entries/anthropic.js'))).toEqual(ANTHROPIC);
    expect(valuesOf(await import('../../src/entries/ai-sdk.js'))).toEqual(AI_SDK);
  });

  it('has forkpoint/testing: the vitest helpers and matchers, the trajectory checks behind them, the conformance suites', async () => {
    expect(valuesOf(await import('../../src/testing/index.js'))).toEqual(TESTING);
    // The trajectory matchers are registered with the rest: one expect.extend(forkpointMatchers) gives them all.
    const { forkpointMatchers } = await import('../../src/testing/index.js');
    expect(Object.keys(forkpointMatchers).sort()).toEqual([
      'toHaveCalled',
      'toHaveCalledWith',
      'toHaveStepsAtMost',
      'toHaveTrajectory',
      'toReplayStrictly',
      'toReplayStrictlyThrough',
    ]);
  });

  it('offers nothing that skips a check the engine makes', async () => {
    const everything = [
      ...valuesOf(await import('../../src/index.js')),
      ...valuesOf(await import('../../src/entries/sqlite.js')),
      ...valuesOf(await import('../../src/entries/postgres.js')),
      ...valuesOf(await import('../../src/entries/analysis.js')),
      ...valuesOf(await import('../../src/entries/openai.js')),
      ...valuesOf(await import('../../src/entries/otel.js')),
      ...valuesOf(await import('../../src/entries/anthropic.js')),
      ...valuesOf(await import('../../src/entries/ai-sdk.js')),
      ...valuesOf(await import('../../src/testing/index.js')),
    ];
    // A checkpoint restored without the expiry check, a transport or machine that no engine call takes,
    // a cassette read or written without the seal and signature a full tier gets.
    for (const bypass of [
      'restoreCheckpoint',
      'createAgentMachine',
      'liveTransport',
      'replayingTransport',
      'overrideTransport',
      'firewalledTransport',
      'parseCassette',
      'readCassetteFile',
      'serializeCassette',
    ])
      expect(everything).not.toContain(bypass);
  });

  it('keeps the same sqliteStore at the root and on forkpoint/sqlite', async () => {
    const root = await import('../../src/index.js');
    const sqlite = await import('../../src/entries/sqlite.js');
    expect(sqlite.sqliteStore).toBe(root.sqliteStore);
  });
});
