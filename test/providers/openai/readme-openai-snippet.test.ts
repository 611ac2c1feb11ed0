import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startOpenAIEmulator, type OpenAIEmulator } from '../../support/emulators/openai-emulator.js';
import { finalTurn, toolTurn } from '../../support/test-agents.js';

const REPOSITORY = resolve(import.meta.dirname, '../../..');

/** The README's TypeScript block that imports `forkpoint/openai`, as a user copies it. */
function readmeSnippet(): string {
  const readme = readFileSync(join(REPOSITORY, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const snippets = blocks.filter((block) => block.includes("from 'forkpoint/openai'"));
  expect(snippets).toHaveLength(1);
  return snippets[0]!;
}

let emulator: OpenAIEmulator;
let file: string | undefined;
beforeEach(async () => {
  emulator = await startOpenAIEmulator('responses');
  // The SDK's own defaults, as the snippet's `new OpenAI()` reads them.
  vi.stubEnv('OPENAI_API_KEY', 'test-key');
  vi.stubEnv('OPENAI_BASE_URL', `${emulator.url}/v1`);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  if (file !== undefined) rmSync(file, { force: true });
  await emulator.close();
});

describe("the README's OpenAI snippet", () => {
  it('records a run over the real SDK and replays it strictly, asking OpenAI nothing', async () => {
    emulator.script([
      { kind: 'response', response: toolTurn([{ name: 'look_up', input: { ticket: 'T-1' } }]) },
      { kind: 'response', response: finalTurn('T-1 is open.') },
    ]);
    // The snippet as it is, but for the package's name, which resolves to this repository's sources, and one
    // line of the test's own that hands back what the snippet made.
    const code = readmeSnippet()
      .replaceAll("from 'forkpoint';", `from ${JSON.stringify(pathToFileURL(join(REPOSITORY, 'src/index.ts')).href)};`)
      .replace(
        "from 'forkpoint/openai';",
        `from ${JSON.stringify(pathToFileURL(join(REPOSITORY, 'src/entries/openai.ts')).href)};`,
      );
    expect(code.match(/from 'forkpoint/g)).toBeNull();
    // Inside the repository, so that `openai` resolves to its node_modules; .tmp/ is ignored by git and the linters.
    mkdirSync(join(REPOSITORY, '.tmp'), { recursive: true });
    file = join(REPOSITORY, '.tmp', `readme-openai-snippet-${process.pid}.ts`);
    writeFileSync(file, `${code}\nexport { run, replay };\n`);

    const { run, replay } = (await import(pathToFileURL(file).href)) as {
      run: { status: string; outcome: unknown; steps: readonly unknown[] };
      replay: { status: string; mode: string; divergence: unknown };
    };
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
