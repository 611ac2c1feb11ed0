import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassesResult, SimilarResult } from '../../src/entries/analysis.js';
import type { JsonObject, JsonValue } from '../../src/index.js';
import { cli, tempFolder } from '../support/cli-harness.js';

// Four days of the claims world before OCR v2, each day's runs made that day (`--now`).
const DAYS = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04'];

interface Recorded {
  readonly runId: string;
  readonly day: string;
  readonly claim: string;
  readonly status: string;
  /** What the run did, read from its steps, not its signature: the oracle the classes are checked against. */
  readonly key: string;
  readonly path: string;
}

let folder: ReturnType<typeof tempFolder>;
let db: string;
let recorded: Recorded[];
const run = (args: string[]) => cli([...args, '--db', db]);
const json = async <T>(args: string[]): Promise<T> => {
  const result = await run([...args, '--json']);
  expect(result.exit, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
};

// A run's class by hand: its tools in order (the fields an OCR read, and a reading under 0.5, marked), how it
// ended and where.
interface ShownRun {
  readonly status: string;
  readonly error: { readonly code: string; readonly step: number } | null;
  readonly steps: ReadonlyArray<{ readonly kind: string; readonly response: JsonObject }>;
}

function oracleOf(view: ShownRun): { key: string; path: string } {
  const { steps } = view;
  const words = steps.flatMap((step): string[] => {
    if (step.kind === 'model') return [];
    const output = step.response.output as JsonObject;
    const fields = (output.fields ?? {}) as Record<string, { confidence?: number }>;
    const low = Object.values(fields).some((field) => (field.confidence ?? 1) < 0.5);
    // What the OCR read (an assessor form's fields, a photo report's) is part of what the run observed.
    const read = Object.keys(fields).sort().join(',');
    return [`${step.kind}(${read})${low ? '[low]' : ''}`];
  });
  // A tool asked for again and again, back to back, is one loop: taken twice or more, not how many times.
  const collapsed = words
    .map((word, i) => (word === words[i + 1] || word === words[i - 1] ? `(${word})+` : word))
    .filter((word, i, all) => word !== all[i - 1]);
  const { error } = view;
  const at = error === null ? '' : (steps[error.step - 1]?.kind ?? 'next');
  const lowAt = collapsed.findIndex((word) => word.endsWith('[low]'));
  return {
    key: `${collapsed.join('>')} ${view.status} ${error?.code ?? ''} ${at}`,
    path: collapsed.slice(0, lowAt + 1).join('>'),
  };
}

beforeAll(async () => {
  folder = tempFolder('forkpoint-classes-');
  db = join(folder.path, 'forkpoint.db');
  recorded = [];
  for (const day of DAYS) {
    const batch = await json<{ runs: Array<{ runId: string; input: { claimId: string }; status: string }> }>([
      'record-batch',
      'scenarios/claims-triage',
      '--claims',
      'ALL',
      '--at',
      day,
      '--capture',
      'all',
      '--now',
      `${day}T09:00:00Z`,
    ]);
    for (const made of batch.runs) {
      // Read while its full tier is kept: by the real clock it expired long ago.
      const view = await json<ShownRun>(['show', made.runId, '--now', `${day}T10:00:00Z`]);
      recorded.push({ runId: made.runId, day, claim: made.input.claimId, status: made.status, ...oracleOf(view) });
    }
  }
}, 120_000);
afterAll(() => {
  folder.cleanup();
});

const LAST_DAY = DAYS.at(-1)!;
const incident = (): Recorded => recorded.find((made) => made.claim === 'CLM-91077' && made.day === LAST_DAY)!;
const idsWhere = (keep: (made: Recorded) => boolean): string[] => recorded.filter(keep).map((made) => made.runId);

describe('forkpoint classes', () => {
  it('partitions the recorded runs exactly as what they did does, largest class first', async () => {
    const result = await json<ClassesResult>(['classes']);
    expect(result.recorded).toBe(recorded.length);
    const byKey = new Map<string, string[]>();
    for (const made of recorded) byKey.set(made.key, [...(byKey.get(made.key) ?? []), made.runId]);
    const expected = [...byKey.values()].map((ids) => [...ids].sort()).sort();
    const got = await Promise.all(
      result.classes.map(async (kind) => {
        const similar = await json<SimilarResult>(['similar', kind.example]);
        return [...similar.same.runIds].sort();
      }),
    );
    expect([...got].sort()).toEqual(expected);
    expect(result.classes.map((kind) => kind.runs)).toEqual(
      [...result.classes.map((kind) => kind.runs)].sort((a, b) => b - a),
    );
    for (const kind of result.classes) {
      expect(kind.share).toBeCloseTo(kind.runs / recorded.length, 10);
      expect(Object.values(kind.byBuild).reduce((a, b) => a + b, 0)).toBe(kind.runs);
    }
  });

  it('lists only the failed classes with --status failed, and names the folded-form misread as one of them', async () => {
    const result = await json<ClassesResult>(['classes', '--status', 'failed']);
    expect(result.matching).toBe(recorded.filter((made) => made.status === 'failed').length);
    expect(result.classes.every((kind) => kind.signature.ending.status === 'failed')).toBe(true);
    const folded = result.classes.find((kind) => kind.words.lead === 'ocr_document [ocr-confidence<0.5]');
    expect(folded?.words.ending).toBe('failed VALIDATION_FAILED at model');
    const text = await run(['classes', '--status', 'failed']);
    expect(text.stdout).toContain('fetch_claim → ocr_document [ocr-confidence<0.5] → estimate_repair → fetch_policy');
  });
});

describe('forkpoint similar', () => {
  it("gives the incident's class with counts by build, day and outcome, and the runs that took its path and ended otherwise", async () => {
    const { runId, key, path } = incident();
    const result = await json<SimilarResult>(['similar', runId]);
    const same = recorded.filter((made) => made.key === key);
    expect([...result.same.runIds].sort()).toEqual(same.map((made) => made.runId).sort());
    expect(result.same.runs).toBe(same.length);
    expect(result.same.byBuild).toEqual({ baseline: same.length });
    expect(result.same.byStatus).toEqual({ failed: same.length });
    expect(Object.keys(result.same.byDay).sort()).toEqual([...new Set(same.map((made) => made.day))].sort());
    expect(result.same.share).toBeCloseTo(same.length / recorded.length, 10);
    expect(result.words.lead).toBe('ocr_document [ocr-confidence<0.5]');
    expect([...result.samePath.runIds].sort()).toEqual(
      idsWhere((made) => made.key !== key && made.path === path && path !== '').sort(),
    );
    const text = await run(['similar', runId]);
    expect(text.stdout).toContain(`${same.length} runs of ${recorded.length} recorded in the store`);
  });

  it('counts only the runs made since a date', async () => {
    const { runId, key } = incident();
    const result = await json<SimilarResult>(['similar', runId, '--since', DAYS[2]!]);
    const later = recorded.filter((made) => made.day >= DAYS[2]!);
    expect(result.recorded).toBe(later.length);
    expect(result.same.runIds).toEqual(later.filter((made) => made.key === key).map((made) => made.runId));
  });

  it('counts a fix verified against the class, and no replay or fork among the recorded runs', async () => {
    const { runId } = incident();
    const replay = await json<{ runId: string; status: string }>([
      'replay',
      runId,
      '--build',
      'patched',
      '--now',
      `${LAST_DAY}T10:00:00Z`,
    ]);
    expect(replay.status).toBe('completed');
    const result = await json<ClassesResult>(['classes', '--status', 'failed']);
    expect(result.recorded).toBe(recorded.length);
    const folded = result.classes.find((kind) => kind.words.lead === 'ocr_document [ocr-confidence<0.5]');
    expect(folded?.verified).toEqual({ build: 'patched', mode: 'replay:strict', runId, checkRunId: replay.runId });
    const again = await json<JsonObject>(['show', replay.runId]);
    expect(again.mode).toBe('replay:strict');
  });

  it('answers the same once every full tier has expired', async () => {
    const before = await json<ClassesResult>(['classes']);
    const like = await json<SimilarResult>(['similar', incident().runId]);
    const gc = await run(['gc', '--now', '2026-03-20T00:00:00Z']);
    expect(gc.exit, gc.stderr).toBe(0);
    const shown = await json<{ steps: JsonValue[]; purge: JsonValue }>(['show', incident().runId]);
    expect(shown.purge).not.toBeNull();
    expect(await json<ClassesResult>(['classes'])).toEqual(before);
    expect(await json<SimilarResult>(['similar', incident().runId])).toEqual(like);
  });

  it('refuses a malformed --since and an unknown run in one line with exit 2, changing nothing', async () => {
    const bytes = readFileSync(db);
    const bad = await run(['similar', incident().runId, '--since', '2026-13-01']);
    expect(bad.exit).toBe(2);
    expect(bad.stderr).toMatch(/^forkpoint: USAGE: --since must be a date .*"2026-13-01"\n$/);
    const classes = await run(['classes', '--since', 'yesterday']);
    expect(classes.exit).toBe(2);
    const unknown = await run(['similar', '0000dead']);
    expect(unknown.exit).toBe(2);
    expect(unknown.stderr).toMatch(/^forkpoint: RUN_NOT_FOUND: no run 0000dead in .*\n$/);
    expect(readFileSync(db).equals(bytes)).toBe(true);
  });
});
