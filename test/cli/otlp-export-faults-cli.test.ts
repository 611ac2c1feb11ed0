import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ISpan } from '@opentelemetry/otlp-transformer/build/src/trace/internal-types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_INCIDENT, cli, tempFolder } from '../support/cli-harness.js';
import { closedPort, startOtlpReceiver } from '../support/otlp-receiver.js';
import { attributesOf, spansOf } from '../support/otlp-spans.js';

const RECORDED = '2026-03-04T09:00:00Z';
const LATER_73H = '2026-03-07T10:00:00Z';
const INCIDENT = '9b40c1d5';
const PAYLOAD_KEYS = /gen_ai\.(tool\.call\.(arguments|result)|output\.messages)/;

let folder: ReturnType<typeof tempFolder>;
let db: string;
const run = (args: string[]) => cli([...args, '--db', db]);

beforeAll(async () => {
  folder = tempFolder('forkpoint-otlp-faults-');
  db = join(folder.path, 'forkpoint.db');
  const recorded = await run([...RECORD_INCIDENT, '--now', RECORDED]);
  expect(recorded.exit).toBe(1);
}, 60_000);
afterAll(() => {
  folder.cleanup();
});

describe('export --otlp when the collector cannot be had', () => {
  it('says OTLP_UNREACHABLE (exit 2, one line) for a port that refuses, and a file export still works', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1/traces`;
    const refused = await run(['export', INCIDENT, '--otlp', url, '--timeout-ms', '200', '--now', RECORDED]);
    expect(refused.exit).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^forkpoint: OTLP_UNREACHABLE: cannot send the spans to .*: the connection was refused/,
    );
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    const file = join(folder.path, 'after-refused.json');
    expect((await run(['export', INCIDENT, '--otlp', file, '--now', RECORDED])).exit).toBe(0);
    expect(spansOf(JSON.parse(readFileSync(file, 'utf8')))).toHaveLength(10);
  });

  it('says OTLP_UNREACHABLE for a collector that accepts and never answers, after --timeout-ms', async () => {
    const silent = await startOtlpReceiver({ silent: true });
    try {
      const result = await run(['export', INCIDENT, '--otlp', silent.url, '--timeout-ms', '300', '--now', RECORDED]);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(/^forkpoint: OTLP_UNREACHABLE: .*did not answer within 300 ms/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await silent.close();
    }
    const file = join(folder.path, 'after-silent.json');
    expect((await run(['export', INCIDENT, '--otlp', file, '--now', RECORDED])).exit).toBe(0);
  });
});

describe('export --otlp of runs without payloads', () => {
  it("exports no payload attribute once the full tier has expired, says so, and leaks none of the run's values", async () => {
    const before = join(folder.path, 'before.json');
    expect((await run(['export', INCIDENT, '--otlp', before, '--content', 'full', '--now', RECORDED])).exit).toBe(0);
    const full = readFileSync(before, 'utf8');
    expect(full).toMatch(PAYLOAD_KEYS);
    // Canaries: values only the payloads hold (the OCR'd document's id and the model's first words).
    const shown = JSON.parse((await run(['show', INCIDENT, '--json', '--now', RECORDED])).stdout) as {
      steps: { request: { input?: { document_id?: string } } }[];
    };
    const documentId = shown.steps[3]!.request.input!.document_id!;
    expect(full).toContain(documentId);
    expect((await run(['gc', '--now', LATER_73H])).exit).toBe(0);
    const after = join(folder.path, 'after.json');
    const result = await run(['export', INCIDENT, '--otlp', after, '--content', 'full', '--json', '--now', LATER_73H]);
    expect(result.exit, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ payloads: 'expired', content: 'full' });
    expect(result.stderr).toMatch(
      /no payload attribute \(--content full has none to read\): its full tier has expired/,
    );
    const text = readFileSync(after, 'utf8');
    expect(text).not.toMatch(PAYLOAD_KEYS);
    expect(text).not.toContain(documentId);
    expect(text).not.toContain('gen_ai.usage.');
    const spans = spansOf(JSON.parse(text));
    expect(attributesOf(spans[0]!)['forkpoint.payloads']).toBe('expired');
    // The structural record keeps the trajectory: a span per step at its position, keyed by its request's shape.
    const position = (span: ISpan): string => {
      const attributes = attributesOf(span);
      return `${String(attributes['forkpoint.kind'])}#${String(attributes['forkpoint.index'])}`;
    };
    expect(spans.slice(1).map(position)).toEqual(spansOf(JSON.parse(full)).slice(1).map(position));
    for (const span of spans.slice(1)) {
      expect(attributesOf(span)['forkpoint.request.shape_hash']).toMatch(/^[0-9a-f]{16}$/);
      expect(attributesOf(span)['forkpoint.request.hash']).toBeUndefined();
    }
  });

  it('exports no payload attribute for a run of the structural tier, whatever --content says', async () => {
    const replay = await run(['replay', INCIDENT, '--tier', 'structural', '--json', '--now', LATER_73H]);
    const replayId = (JSON.parse(replay.stdout) as { runId: string }).runId;
    const file = join(folder.path, 'structural.json');
    const result = await run(['export', replayId, '--otlp', file, '--content', 'full', '--json', '--now', LATER_73H]);
    expect(result.exit, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ payloads: 'structural', runMode: 'replay:structural' });
    expect(result.stderr).toMatch(/structural tier, which keeps shapes only/);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(PAYLOAD_KEYS);
    expect(text).not.toContain('gen_ai.usage.');
    const steps = spansOf(JSON.parse(text)).slice(1);
    expect(steps.length).toBeGreaterThan(1);
    for (const span of steps) expect(attributesOf(span)['forkpoint.request.shape_hash']).toMatch(/^[0-9a-f]{16}$/);
  });
});
