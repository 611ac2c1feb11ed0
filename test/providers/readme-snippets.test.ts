import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProviderEmulator } from '../../src/testing/index.js';
import { startAnthropicEmulator } from '../support/emulators/anthropic-emulator.js';
import { runReadmeSnippet } from '../support/readme-snippet.js';
import { finalTurn, toolTurn } from '../support/test-agents.js';

// The README's "Use it with your own agent" snippets for Anthropic and the AI SDK, run as a user copies them:
// only the SDKs' own environment (the key, and the base URL of the emulator) is the test's.

let emulator: ProviderEmulator | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await emulator?.close();
});

type Ran = {
  readonly run: { status: string; outcome: unknown; steps: readonly unknown[] };
  readonly replay: { status: string; mode: string; divergence: unknown };
};

async function ranOverTheEmulator(entry: string, baseUrlOf: (url: string) => string): Promise<Ran> {
  emulator = await startAnthropicEmulator();
  vi.stubEnv('ANTHROPIC_API_KEY', 'test-key');
  vi.stubEnv('ANTHROPIC_BASE_URL', baseUrlOf(emulator.url));
  emulator.script([
    { kind: 'response', response: toolTurn([{ name: 'look_up', input: { ticket: 'T-1' } }]) },
    { kind: 'response', response: finalTurn('T-1 is open.') },
  ]);
  return (await runReadmeSnippet(entry, ['run', 'replay'])) as Ran;
}

describe('the README snippets of forkpoint/anthropic and forkpoint/ai-sdk', () => {
  it("the README's Anthropic snippet records over the real SDK and replays strictly, asking Anthropic nothing", async () => {
    const { run, replay } = await ranOverTheEmulator('forkpoint/anthropic', (url) => url);
    expect(run).toMatchObject({ status: 'completed', outcome: { answer: 'T-1 is open.' } });
    expect(run.steps).toHaveLength(3);
    expect(replay).toMatchObject({ status: 'completed', mode: 'replay:strict', divergence: null });
    expect(emulator?.received()).toHaveLength(2);
    expect(emulator?.received()[0]).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 1024 } });
  });

  it("the README's AI SDK snippet does the same through an AI SDK provider's model", async () => {
    // The AI SDK's Anthropic provider reads the same variable, with the API's version in it.
    const { run, replay } = await ranOverTheEmulator('forkpoint/ai-sdk', (url) => `${url}/v1`);
    expect(run).toMatchObject({ status: 'completed', outcome: { answer: 'T-1 is open.' } });
    expect(replay).toMatchObject({ status: 'completed', mode: 'replay:strict', divergence: null });
    expect(emulator?.received()).toHaveLength(2);
  });
});
