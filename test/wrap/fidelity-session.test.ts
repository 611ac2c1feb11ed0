import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { memoryStore } from '../../src/store/index.js';
import type { ProviderEmulator } from '../../src/testing/index.js';
import type { Session } from '../../src/wrap/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { anthropicClaimLoop } from './support/anthropic-claim-loop.js';
import { anthropicThrough, recordClaimRun, wrappedClaimTools } from './support/session-fixtures.js';
import { CLAIM_SYSTEM, claimTools, decisionOf, incidentAnswers } from './support/claim-world.js';

let emulator: ProviderEmulator;
beforeAll(async () => {
  emulator = await startAnthropicEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const engine = createEngine({ store: memoryStore() });
const agent = 'claims-loop';
const script = () => {
  emulator.script(incidentAnswers().map((response) => ({ kind: 'response', response })));
};

function runLoop(session: Session, tools: ReturnType<typeof claimTools>, system = CLAIM_SYSTEM) {
  return anthropicClaimLoop(anthropicThrough(session, emulator.url), wrappedClaimTools(session, tools), { system });
}

async function recorded(): Promise<string> {
  return recordClaimRun(engine, emulator, agent);
}

describe('a replay:fidelity session over a wrapped loop', () => {
  it('replays an unchanged loop as strict replay does, with no finding', async () => {
    const source = await recorded();
    const before = emulator.received().length;
    const session = await engine.session({ mode: 'replay:fidelity', agent, source });
    const run = await session.close({ outcome: decisionOf(await runLoop(session, claimTools())) });
    expect(run).toMatchObject({ mode: 'replay:fidelity', status: 'completed', divergence: null, findings: [] });
    expect(emulator.received().length - before).toBe(0);
  });

  it('stops at a miss by default: the run is diverged, and the miss is its finding', async () => {
    const source = await recorded();
    const session = await engine.session({ mode: 'replay:fidelity', agent, source });
    await runLoop(session, claimTools(), 'Another prompt.').catch(() => undefined);
    const run = await session.close();
    expect(run.status).toBe('diverged');
    expect(run.findings).toHaveLength(1);
    expect(run.findings[0]).toMatchObject({ classification: 'changed', kind: 'model', index: 0 });
  });

  it('goes live from the miss on when asked by name, marking those steps live and reporting every miss', async () => {
    const source = await recorded();
    script();
    const before = emulator.received().length;
    const tools = claimTools();
    const session = await engine.session({ mode: 'replay:fidelity', agent, source, onMiss: 'live' });
    const run = await session.close({ outcome: decisionOf(await runLoop(session, tools, 'Another prompt.')) });
    expect(run.status).toBe('completed');
    expect(run.divergence).toBeNull();
    expect(run.steps.every((step) => step.provenance === 'live')).toBe(true);
    // Every model request carried the changed prompt, so every one missed; the tools, asked the same, did not.
    expect(
      run.findings.filter((finding) => finding.classification === 'changed').map((finding) => finding.kind),
    ).toEqual(['model', 'model', 'model', 'model']);
    expect(emulator.received().length - before).toBe(4);
    expect(tools.total()).toBe(3);
  });
});
