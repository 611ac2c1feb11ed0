import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkpointMatchers } from '../../src/testing/index.js';
import { build, withIncident } from '../support/incident.js';

expect.extend(forkpointMatchers);

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The README's one text block that starts with `start`. */
function textBlock(start: string): string {
  const blocks = [...README.matchAll(/```text\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? '')
    .filter((block) => block.startsWith(start));
  if (blocks.length !== 1) throw new Error(`the README has ${blocks.length} text blocks starting ${start}, not 1`);
  return blocks[0] ?? '';
}

describe("the README's trajectory assertions", () => {
  it('hold on the incident as written, and fail on baseline with the message it prints', async () => {
    const { engine, incident } = await withIncident();
    const cassette = await engine.cassette(incident.runId);
    const fixed = await engine.replay({ agent: build('patched'), cassette, mode: 'strict' });
    expect(fixed).not.toHaveCalled('estimate_repair');
    expect(fixed).toHaveTrajectory(['fetch_claim', 'ocr_document'], { order: 'strict' });
    expect(fixed).toHaveStepsAtMost(9);
    expect(fixed).toHaveCalledWith('ocr_document', expect.objectContaining({ document_id: 'DOC-77120' }));

    const unfixed = await engine.replay({ agent: build('baseline'), cassette, mode: 'strict' });
    let message = '';
    try {
      expect(unfixed).not.toHaveCalled('estimate_repair');
    } catch (error) {
      message = (error as Error).message;
    }
    const printed = textBlock('step 6 estimate_repair#0');
    // A replay's run id is fresh each time: the README shows one.
    const shown = /^replay:strict · run ([0-9a-f]+) ·/m.exec(printed)?.[1] ?? '';
    expect(`${message.replace(`run ${unfixed.runId} ·`, `run ${shown} ·`)}\n`).toBe(printed);
  });
});
