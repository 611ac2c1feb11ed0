import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProviderEmulator } from '../../src/testing/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { runReadmeSnippet } from '../support/readme-snippet.js';
import { finalTurn, toolTurn } from '../support/test-agents.js';

let emulator: ProviderEmulator | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await emulator?.close();
});

type Ran = Record<
  'run' | 'replay' | 'fork',
  { mode: string; status: string; outcome: unknown; steps: { provenance: string }[] }
>;

describe("the README's wrap snippet", () => {
  it('records a loop it did not write, replays it with no request, and forks it by prefix replay', async () => {
    emulator = await startAnthropicEmulator();
    vi.stubEnv('ANTHROPIC_API_KEY', 'test-key');
    vi.stubEnv('ANTHROPIC_BASE_URL', emulator.url);
    emulator.script([
      { kind: 'response', response: toolTurn([{ name: 'look_up', input: { ticket: 'T-1' } }]) },
      { kind: 'response', response: finalTurn('T-1 is open.') },
      { kind: 'response', response: finalTurn('T-1 is closed.') },
    ]);
    const { run, replay, fork } = (await runReadmeSnippet(
      'forkpoint',
      ['run', 'replay', 'fork'],
      'createSession(',
    )) as Ran;
    expect(run).toMatchObject({ mode: 'record', status: 'completed', outcome: { answer: 'T-1 is open.' } });
    expect(replay).toMatchObject({ mode: 'replay:strict', status: 'completed', outcome: { answer: 'T-1 is open.' } });
    expect(fork).toMatchObject({ mode: 'fork:prefix', status: 'completed', outcome: { answer: 'T-1 is closed.' } });
    expect(fork.steps.map((step) => step.provenance)).toEqual(['inherited', 'override', 'live']);
    // Two calls recorded, none replayed, one after the fork.
    expect(emulator.received()).toHaveLength(3);
  });
});
