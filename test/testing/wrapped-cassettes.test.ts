import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { memoryStore } from '../../src/store/index.js';
import type { Session } from '../../src/wrap/index.js';
import {
  checkWrappedReplay,
  describeWrappedCassettes,
  forkpointMatchers,
  readFixture,
} from '../../src/testing/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { anthropicClaimLoop } from '../wrap/support/anthropic-claim-loop.js';
import { CLAIM_SYSTEM, claimTools, decisionOf, incidentAnswers } from '../wrap/support/claim-world.js';

expect.extend(forkpointMatchers);

// The loop as a team's own test suite would wrap it: against a URL nothing answers, since a strict replay
// never makes a request.
const loopWith =
  (url: string, system = CLAIM_SYSTEM) =>
  async (session: Session) => {
    const tools = claimTools();
    const client = new Anthropic({
      apiKey: 'test-key',
      baseURL: url,
      maxRetries: 0,
      middleware: [session.anthropic()],
    });
    const text = await anthropicClaimLoop(
      client,
      {
        fetch_claim: session.tool('fetch_claim', tools.fetch_claim, { readOnly: true }),
        ocr_document: session.tool('ocr_document', tools.ocr_document, { readOnly: true }),
        estimate_repair: session.tool('estimate_repair', tools.estimate_repair, { readOnly: true }),
      },
      { system },
    );
    return decisionOf(text);
  };

// A cassette recorded once, kept as a fixture would be (synthetic tier: an open file that never expires).
const emulator = await startAnthropicEmulator();
const folder = mkdtempSync(join(tmpdir(), 'forkpoint-wrapped-cassettes-'));
const engine = createEngine({ store: memoryStore() });
emulator.script(incidentAnswers().map((response) => ({ kind: 'response', response })));
const recording = await engine.session({ mode: 'record', agent: 'claims-loop', tier: 'synthetic' });
const recorded = await recording.close({ outcome: await loopWith(emulator.url)(recording) });
const file = join(folder, 'incident.json');
writeFileSync(file, (await engine.exportCassette(recorded.runId)).text);
await emulator.close();
const nowhere = 'http://127.0.0.1:9';

afterAll(async () => {
  await engine.store.close();
});

describeWrappedCassettes(folder, { loop: loopWith(nowhere), name: 'the incident, replayed through the loop' });

describe("forkpoint/testing's helpers for a wrapped loop's cassettes", () => {
  it('say why a changed prompt does not replay: the divergence at model#0 and its diff on system', async () => {
    const check = await checkWrappedReplay(await readFixture(file), loopWith(nowhere, `${CLAIM_SYSTEM} Be brief.`));
    expect(check.pass).toBe(false);
    expect(check.result.status).toBe('diverged');
    expect(check.message).toMatch(/diverged: model#0 \(step 1\)/);
    expect(check.message).toMatch(/\n {2}system: /);
  });

  it('fail a loop that replays every call but ends otherwise', async () => {
    const otherwise = async (session: Session) => ({ ...(await loopWith(nowhere)(session)), decision: 'approve' });
    const check = await checkWrappedReplay(await readFixture(file), otherwise);
    expect(check.pass).toBe(false);
    expect(check.message).toMatch(/ended otherwise: recorded \{"decision":"deny"\}, now \{"decision":"approve"\}/);
  });

  it('give a matcher that passes on the loop as recorded and fails on a changed one', async () => {
    await expect(file).toReplayStrictlyThrough(loopWith(nowhere));
    await expect(file).not.toReplayStrictlyThrough(loopWith(nowhere, 'Another prompt.'));
  });
});
