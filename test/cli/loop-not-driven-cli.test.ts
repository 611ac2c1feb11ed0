import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WRAPPED_AGENT } from '../wrap/support/wrapped-runs.js';
import { wrappedStoreFixture } from '../wrap/support/wrapped-store.js';

const fixture = wrappedStoreFixture('forkpoint-loop-not-driven-cli-');
const { run, json } = fixture;

interface Listed {
  readonly runId: string;
}

describe('the commands that need the driven machine, on a wrapped loop’s run (the built CLI)', () => {
  const refused = async (args: readonly string[], instead: string) => {
    const result = await run(args);
    expect(result.exit).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^forkpoint: LOOP_NOT_DRIVEN: (the cassette of )?run ${fixture.ids.recorded} is a recording of a loop forkpoint does not drive \\(agent "${WRAPPED_AGENT}"\\), .*\n$`,
      ),
    );
    expect(result.stderr).toContain(instead);
    const asJson = await run([...args, '--json']);
    expect(asJson.exit).toBe(2);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ error: { code: 'LOOP_NOT_DRIVEN' } });
  };

  it.each([
    [
      ['fork', '<recorded>', '--at-step', '4', '--tool-merge', '{"invoiceTotal":2050}'],
      "a fork:prefix session over your loop (createSession({ mode: 'fork:prefix'",
    ],
    [['resume', '<recorded>'], 'a replay:fidelity session over your loop that goes live where the recording ends'],
    [['replay', '<recorded>'], "a replay:strict session (createSession({ mode: 'replay:strict'"],
    [
      ['replay', '<recorded>', '--tier', 'structural'],
      "a replay:strict session (createSession({ mode: 'replay:strict'",
    ],
    [
      ['reexecute', '<recorded>', '--at', '2026-03-05'],
      "with a record session over it (createSession({ mode: 'record'",
    ],
    [
      ['verify', '<recorded>', '--candidate', 'patched', '--baseline', 'baseline'],
      'replaying it through each build of your loop',
    ],
  ])('%j exits 2 with LOOP_NOT_DRIVEN, naming the session to use instead', async (args, instead) => {
    await refused(
      args.map((arg) => (arg === '<recorded>' ? fixture.ids.recorded : arg)),
      instead,
    );
  });

  it('wrote nothing on any of those refusals', async () => {
    const listed = await json<{ runs: Listed[] }>(['runs']);
    expect(listed.runs.map((each) => each.runId)).toEqual([
      fixture.ids.forked,
      fixture.ids.replayed,
      fixture.ids.recorded,
    ]);
  });

  it('suite: a folder holding a wrapped cassette reports it invalid, saying to replay it through the loop', async () => {
    const cassettes = join(fixture.folder, 'suite');
    mkdirSync(cassettes, { recursive: true });
    const file = join(cassettes, 'wrapped.json');
    expect((await run(['export', fixture.ids.recorded, '-o', file])).exit).toBe(0);
    const result = await run([
      'suite',
      cassettes,
      '--scenario',
      'scenarios/claims-triage',
      '--build',
      'baseline',
      '--json',
    ]);
    expect(result.exit).toBe(2);
    const suite = JSON.parse(result.stdout) as {
      invalid: number;
      cases: { name: string; status: string; error: { code: string; message: string } | null }[];
    };
    expect(suite.invalid).toBe(1);
    expect(suite.cases).toMatchObject([{ name: file, status: 'invalid', error: { code: 'LOOP_NOT_DRIVEN' } }]);
    expect(suite.cases[0]?.error?.message).toContain("in vitest with forkpoint/testing's describeWrappedCassettes");
    const replayed = await run(['replay', '--cassette', file, '--scenario', 'scenarios/claims-triage']);
    expect(replayed.exit).toBe(2);
    expect(replayed.stderr).toContain(
      `LOOP_NOT_DRIVEN: the cassette of run ${fixture.ids.recorded} is a recording of a loop forkpoint does not drive`,
    );
    expect(replayed.stderr).toContain(
      'createSession({ mode: \'replay:strict\', agent: "claims-loop", source: cassette })',
    );
    const text = await run(['suite', cassettes, '--scenario', 'scenarios/claims-triage', '--build', 'baseline']);
    expect(text.stdout).toContain(`invalid  ${file}: LOOP_NOT_DRIVEN: the cassette of run ${fixture.ids.recorded}`);
  });
});
