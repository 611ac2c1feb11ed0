import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startOpenAIEmulator, type OpenAIEmulator } from '../../support/emulators/openai-emulator.js';
import { runReadmeSnippet } from '../../support/readme-snippet.js';
import { finalTurn, toolTurn } from '../../support/test-agents.js';

let emulator: OpenAIEmulator;
beforeEach(async () => {
  emulator = await startOpenAIEmulator('responses');
  // The SDK's own defaults, as the snippet's `new OpenAI()` reads them.
  vi.stubEnv('OPENAI_API_KEY', 'test-key');
  vi.stubEnv('OPENAI_BASE_URL', `${emulator.url}/v1`);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await emulator.close();
});

type Ran = {
  readonly run: { status: string; outcome: unknown; steps: readonly unknown[] };
  readonly replay: { status: string; mode: string; divergence: unknown };
};

describe("the README's OpenAI snippet", () => {
  it('records a run over the real SDK and replays it strictly, asking OpenAI nothing', async () => {
    emulator.script([
      { kind: 'response', response: toolTurn([{ name: 'look_up', input: { ticket: 'T-1' } }]) },
      { kind: 'response', response: finalTurn('T-1 is open.') },
    ]);
    const { run, replay } = (await runReadmeSnippet('forkpoint/openai', ['run', 'replay'])) as Ran;
    expect(run.status).toBe('completed');
    expect(run.outcome).toEqual({ answer: 'T-1 is open.' });
    expect(run.steps).toHaveLength(3);
    expect(replay).toMatchObject({ status: 'completed', mode: 'replay:strict', divergence: null });
    // The recording's two model calls, and none since: the replay asked OpenAI nothing.
    expect(emulator.received()).toHaveLength(2);
    expect(emulator.received()[0]).toMatchObject({
      model: 'gpt-5.4',
      store: false,
      reasoning: { effort: 'low' },
      max_output_tokens: 1024,
    });
  });
});
