import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentBuild } from '../../src/agent/index.js';
import { restoreCheckpoint } from '../../src/checkpoint/index.js';
import type { Engine } from '../../src/engine/index.js';
import { createEngine } from '../../src/engine/index.js';
import { ForkpointError } from '../../src/errors/index.js';
import { sqliteStore } from '../../src/store/index.js';
import { createRefundDesk } from '../support/refund-agent.js';
import { LEDGER_BUILDS } from '../support/stateful-refund.js';
import { stampedAs } from '../support/stamped-store.js';
import { headline, styleFor, summarizerOf } from '../../src/text/index.js';
import { formatLineage } from '../../src/cli/output/format-lineage.js';
import { MACHINE_VERSION } from '../../src/machine/index.js';

const PARENT = '0000b001';
// The order was 80, not 120: a change at the refund's lookup (step 2) any build can make.
const CHEAPER = { kind: 'tool-merge', patch: { amount: 80 } } as const;

async function recordedLedger(agent: AgentBuild = LEDGER_BUILDS.v1) {
  let ids = 0;
  const store = sqliteStore({ path: ':memory:' });
  const engine = createEngine({
    store,
    clock: () => new Date('2026-03-04T09:00:00.000Z'),
    newRunId: () => (0x30000000 + ids++).toString(16),
  });
  const desk = createRefundDesk();
  const recorded = await engine.record({ agent, world: desk.world, input: { orderId: 'ORD-1' }, runId: PARENT });
  return { engine, store, desk, recorded };
}

/** Everything a store holds of its runs, to show that a refused fork wrote nothing. */
const runsOf = async (engine: Engine) => (await engine.listRuns()).map((run) => [run.runId, run.stepCount]);

const forkUnder = (
  engine: Engine,
  world: ReturnType<typeof createRefundDesk>['world'],
  agent: AgentBuild,
  atStep = 2,
) => engine.fork({ parentRunId: PARENT, atStep, agent, world, override: CHEAPER, sideEffects: 'simulate' });

async function refusal(work: () => Promise<unknown>): Promise<ForkpointError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ForkpointError) return error;
    throw error;
  }
  throw new Error('nothing was refused');
}

describe('checkpoints across builds', () => {
  it('keep the build state and its version in every checkpoint, updated before the hooks read it', async () => {
    const { store, recorded } = await recordedLedger();
    expect(recorded.status).toBe('completed');
    const at4 = await restoreCheckpoint(store, PARENT, 4);
    expect(at4.context.buildState).toEqual({ version: 1, value: { looked_up: ['lookup_order', 'lookup_customer'] } });
    expect((await restoreCheckpoint(store, PARENT, 0)).context.buildState).toEqual({
      version: 1,
      value: { looked_up: [] },
    });
  });

  it('continue a fork under a build of the same state version as stored, recording no migration', async () => {
    const { engine, desk } = await recordedLedger();
    const fork = await forkUnder(engine, desk.world, LEDGER_BUILDS.v1);
    expect(fork.status).toBe('completed');
    expect(fork.parent.migration).toBeUndefined();
  });

  it('migrate a checkpoint for a build whose state renamed a field, and record the migration on the fork', async () => {
    const { engine, store, desk } = await recordedLedger();
    const fork = await forkUnder(engine, desk.world, LEDGER_BUILDS.v2, 4);
    expect(fork).toMatchObject({ status: 'completed', outcome: { refunded: 120 } });
    expect(fork.parent.migration).toEqual({ machine: null, state: { from: 1, to: 2, build: 'ledger-v2' } });
    // Read back from the store, as `show --json` gives it.
    expect((await engine.getRunSummary(fork.runId)).parent?.migration).toEqual(fork.parent.migration);
    const first = await restoreCheckpoint(store, fork.runId, 5);
    expect(first.context.buildState).toEqual({
      version: 2,
      value: { calls: ['lookup_order', 'lookup_customer'] },
    });
  });

  it.each([
    [
      'no migration',
      LEDGER_BUILDS.v2Unmigrated,
      /keeps build state version 1; build ledger-v2-unmigrated keeps version 2 and supplies no migration/,
    ],
    [
      'a migration that throws',
      LEDGER_BUILDS.v2Throws,
      /migration to version 2 failed: the ledger of 2025 cannot be read/,
    ],
    [
      'a migration its own validate refuses',
      LEDGER_BUILDS.v2Invalid,
      /returned a state it does not accept: a ledger holds a list of calls/,
    ],
  ])('refuse a fork under a build with %s, by name and before any row is written', async (_case, agent, message) => {
    const { engine, desk } = await recordedLedger();
    const before = await runsOf(engine);
    const error = await refusal(() => forkUnder(engine, desk.world, agent));
    expect(error.code).toBe('CHECKPOINT_INCOMPATIBLE');
    expect(error.message).toMatch(message);
    expect(error.message).toContain(`checkpoint 1 of run ${PARENT}`);
    expect(await runsOf(engine)).toEqual(before);
  });

  it('set the state aside for a build that keeps none, and refuse a build that needs one the checkpoint never kept', async () => {
    const { engine, desk } = await recordedLedger();
    const fork = await forkUnder(engine, desk.world, LEDGER_BUILDS.stateless);
    expect(fork.status).toBe('completed');
    expect(fork.parent.migration).toEqual({ machine: null, state: { from: 1, to: null, build: 'ledger-none' } });

    const stateless = await recordedLedger(LEDGER_BUILDS.stateless);
    const error = await refusal(() => forkUnder(stateless.engine, stateless.desk.world, LEDGER_BUILDS.v2));
    expect(error.code).toBe('CHECKPOINT_INCOMPATIBLE');
    expect(error.message).toContain('keeps no build state');
  });

  it('fork every step under the same build or one with a renamed state: continued, migrated, or refused whole, never half restored', async () => {
    const { engine, store, desk, recorded } = await recordedLedger();
    const builds = [
      LEDGER_BUILDS.v1,
      LEDGER_BUILDS.v2,
      LEDGER_BUILDS.v2Unmigrated,
      LEDGER_BUILDS.v2Throws,
      LEDGER_BUILDS.v2Invalid,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: recorded.steps.length }),
        fc.constantFrom(...builds),
        async (atStep, agent) => {
          const before = await runsOf(engine);
          const at = recorded.steps[atStep - 1];
          // A model step takes a prompt change; a tool step a merge into its output.
          const override =
            at?.kind === 'model' ? ({ kind: 'system-prompt', system: 'Refund desk, migrated.' } as const) : CHEAPER;
          let forked;
          try {
            forked = await engine.fork({
              parentRunId: PARENT,
              atStep,
              agent,
              world: desk.world,
              override,
              sideEffects: 'simulate',
            });
          } catch (error) {
            expect(error).toBeInstanceOf(ForkpointError);
            expect((error as ForkpointError).code).toBe('CHECKPOINT_INCOMPATIBLE');
            expect([LEDGER_BUILDS.v1, LEDGER_BUILDS.v2]).not.toContain(agent);
            expect(await runsOf(engine)).toEqual(before);
            return;
          }
          const own = await restoreCheckpoint(store, forked.runId, atStep);
          if (agent === LEDGER_BUILDS.v1) {
            // The same build: the checkpoint continues as stored, its state the parent's own up to the fork.
            expect(forked.parent.migration).toBeUndefined();
            expect(own.context.buildState?.version).toBe(1);
            return;
          }
          expect(agent).toBe(LEDGER_BUILDS.v2);
          expect(forked.parent.migration?.state).toEqual({ from: 1, to: 2, build: 'ledger-v2' });
          expect(own.context.buildState?.version).toBe(2);
          expect(LEDGER_BUILDS.v2.state?.validate?.(own.context.buildState?.value ?? null)).toEqual([]);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('checkpoints of an older forkpoint', () => {
  it('are continued through the machine migration by a fork and a resume, each recording it', async () => {
    // Read as a version 1 forkpoint would have written them.
    const store = stampedAs(sqliteStore({ path: ':memory:' }), MACHINE_VERSION, 1);
    const engine = createEngine({ store, clock: () => new Date('2026-03-04T09:00:00.000Z') });
    const desk = createRefundDesk();
    let calls = 0;
    // The provider drops its third call: the run stops, resumable, after step 4.
    const dropping = {
      ...desk.world,
      model: {
        respond: (request: Parameters<typeof desk.world.model.respond>[0]) =>
          ++calls === 3 ? Promise.reject(new Error('socket hang up')) : desk.world.model.respond(request),
      },
    };
    const stopped = await engine.record({ agent: LEDGER_BUILDS.v1, world: dropping, input: { orderId: 'ORD-1' } });
    expect(stopped).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_FAILED' } });
    const fork = await engine.fork({
      parentRunId: stopped.runId,
      atStep: 2,
      agent: LEDGER_BUILDS.v1,
      world: desk.world,
      override: CHEAPER,
      sideEffects: 'simulate',
    });
    expect(fork.parent.migration).toEqual({ machine: { from: 1, to: MACHINE_VERSION }, state: null });
    const resumed = await engine.resume({
      runId: stopped.runId,
      agent: LEDGER_BUILDS.v1,
      world: desk.world,
      sideEffects: 'simulate',
    });
    expect(resumed.resumed.migration).toEqual({ machine: { from: 1, to: MACHINE_VERSION }, state: null });
    expect(resumed.status).toBe('completed');
  });
});

describe('a migrated checkpoint', () => {
  it('is shown where the fork is named: its headline and its place in the tree', async () => {
    const { engine, desk } = await recordedLedger();
    const fork = await forkUnder(engine, desk.world, LEDGER_BUILDS.v2, 4);
    const plain = styleFor({}, {});
    expect(headline(await engine.getRunSummary(fork.runId), plain)).toContain(
      'checkpoint migrated: state 1 -> 2 (migration of build ledger-v2)',
    );
    const tree = formatLineage(await engine.lineage(PARENT), plain, () => summarizerOf());
    expect(tree).toContain('; checkpoint migrated: state 1 -> 2 (migration of build ledger-v2)): ');
  });
});
