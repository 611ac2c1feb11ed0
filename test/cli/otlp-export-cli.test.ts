import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isValidSpanId, isValidTraceId } from '@opentelemetry/api';
import type { ISpan } from '@opentelemetry/otlp-transformer/build/src/trace/internal-types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_INCIDENT, cli, tempFolder } from '../support/cli-harness.js';
import type { OtlpReceiver, Received } from '../support/otlp-receiver.js';
import { startOtlpReceiver } from '../support/otlp-receiver.js';
import { KIND, STATUS, attributesOf, spansOf } from '../support/otlp-spans.js';

const MERGE = '{"fields":{"damage_area_cm2":{"value":2050,"confidence":0.97}}}';
const INCIDENT = '9b40c1d5';
const STEP_NAMES = [
  'chat claude-opus-5',
  'execute_tool fetch_claim',
  'chat claude-opus-5',
  'execute_tool ocr_document',
  'chat claude-opus-5',
  'execute_tool estimate_repair',
  'chat claude-opus-5',
  'execute_tool fetch_policy',
  'chat claude-opus-5',
];

let folder: ReturnType<typeof tempFolder>;
let db: string;
let receiver: OtlpReceiver;
let forkId: string;
let replayId: string;
const got = new Map<string, Received>();

const run = (args: string[]) => cli([...args, '--db', db]);
const send = async (runId: string): Promise<Received> => {
  const before = receiver.received.length;
  const sent = await run(['export', runId, '--otlp', receiver.url, '--json']);
  expect(sent.exit, sent.stderr).toBe(0);
  expect(receiver.received).toHaveLength(before + 1);
  return receiver.received[before]!;
};

beforeAll(async () => {
  folder = tempFolder('forkpoint-otlp-cli-');
  db = join(folder.path, 'forkpoint.db');
  const recorded = await run([...RECORD_INCIDENT]);
  expect(recorded.exit).toBe(1);
  const fork = await run([
    'fork',
    INCIDENT,
    '--at-step',
    '4',
    '--tool-merge',
    MERGE,
    '--side-effects',
    'estimate_repair=simulate',
    '--json',
  ]);
  forkId = (JSON.parse(fork.stdout) as { runId: string }).runId;
  const replay = await run(['replay', INCIDENT, '--strict', '--json']);
  replayId = (JSON.parse(replay.stdout) as { runId: string }).runId;
  receiver = await startOtlpReceiver();
  for (const runId of [INCIDENT, forkId, replayId]) got.set(runId, await send(runId));
}, 60_000);
afterAll(async () => {
  await receiver.close();
  folder.cleanup();
});

const spans = (runId: string): ISpan[] => spansOf(got.get(runId)!.request);
const agentOf = (runId: string): ISpan => spans(runId).find((span) => span.parentSpanId === undefined)!;
const stepSpans = (runId: string): ISpan[] => spans(runId).filter((span) => span.parentSpanId !== undefined);
const stepSpan = (runId: string, step: number): ISpan =>
  stepSpans(runId).find((span) => attributesOf(span)['forkpoint.step'] === step)!;

describe('export --otlp to an OTLP/HTTP collector', () => {
  it("posts the incident as OTLP/JSON to the URL given: one agent span, a child per step, the conventions' names", () => {
    const received = got.get(INCIDENT)!;
    expect(received.path).toBe('/v1/traces');
    expect(received.contentType).toBe('application/json');
    const all = spans(INCIDENT);
    expect(all).toHaveLength(10);
    const agent = agentOf(INCIDENT);
    expect(all.filter((span) => span.parentSpanId === undefined)).toEqual([agent]);
    expect(agent).toMatchObject({ name: 'invoke_agent claims-triage', kind: KIND.internal });
    expect(isValidTraceId(String(agent.traceId))).toBe(true);
    for (const span of stepSpans(INCIDENT)) {
      expect(span.traceId).toBe(agent.traceId);
      expect(span.parentSpanId).toBe(agent.spanId);
      expect(isValidSpanId(String(span.spanId))).toBe(true);
    }
    expect(stepSpans(INCIDENT).map((span) => span.name)).toEqual(STEP_NAMES);
    expect(attributesOf(agent)).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'claims-triage',
      'gen_ai.conversation.id': INCIDENT,
      'forkpoint.run.id': INCIDENT,
      'forkpoint.mode': 'record',
      'forkpoint.build': 'baseline',
      'forkpoint.timing': 'ordered',
      'forkpoint.payloads': 'reference',
    });
  });

  it('carries the GenAI attributes on chat and tool spans, usage on the live calls, and the request hash', () => {
    const chat = stepSpan(INCIDENT, 1);
    expect(chat.kind).toBe(KIND.client);
    const attributes = attributesOf(chat);
    expect(attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-opus-5',
      'gen_ai.response.model': 'claude-opus-5',
      'gen_ai.response.finish_reasons': ['tool_use'],
      'forkpoint.provenance': 'live',
      'forkpoint.step': 1,
    });
    expect(attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(attributes['forkpoint.request.hash']).toMatch(/^[0-9a-f]{16}$/);
    expect(attributes['forkpoint.cassette.key']).toBe(`model:0:${String(attributes['forkpoint.request.hash'])}`);
    const ocr = attributesOf(stepSpan(INCIDENT, 4));
    expect(ocr).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'ocr_document',
      'forkpoint.kind': 'ocr_document',
    });
    expect(ocr['gen_ai.tool.call.id']).toEqual(expect.any(String));
    expect(stepSpan(INCIDENT, 4).kind).toBe(KIND.internal);
    // The default tier is `reference`: no payload attribute at all.
    expect(got.get(INCIDENT)!.body).not.toMatch(/gen_ai\.(tool\.call\.(arguments|result)|output\.messages)/);
  });

  it('marks the failing step and the run ERROR with the error code', () => {
    expect(stepSpan(INCIDENT, 9).status).toMatchObject({ code: STATUS.error });
    expect(attributesOf(stepSpan(INCIDENT, 9))['error.type']).toBe('VALIDATION_FAILED');
    expect(agentOf(INCIDENT).status).toMatchObject({ code: STATUS.error });
    expect(attributesOf(agentOf(INCIDENT))['error.type']).toBe('VALIDATION_FAILED');
    for (const step of [1, 2, 3, 4, 5, 6, 7, 8]) expect(stepSpan(INCIDENT, step).status.code).toBe(STATUS.unset);
  });

  it("links the fork to the incident's agent span and to the step it continued from, as the incident's export names them", () => {
    const links = agentOf(forkId).links;
    expect(links.map((link) => [link.traceId, link.spanId])).toEqual([
      [agentOf(INCIDENT).traceId, agentOf(INCIDENT).spanId],
      [agentOf(INCIDENT).traceId, stepSpan(INCIDENT, 3).spanId],
    ]);
    expect(agentOf(forkId).traceId).not.toBe(agentOf(INCIDENT).traceId);
    for (const span of spans(forkId))
      expect(attributesOf(span)).toMatchObject({
        'forkpoint.parent.run.id': INCIDENT,
        'forkpoint.fork.at_step': 4,
        'forkpoint.mode': 'fork',
      });
    expect(attributesOf(agentOf(forkId))).toMatchObject({ 'forkpoint.status': 'completed' });
    expect(agentOf(forkId).status.code).toBe(STATUS.unset);
  });

  it('counts usage only on live calls: inherited chat spans are INTERNAL with recorded usage, live ones CLIENT', () => {
    const inherited = stepSpan(forkId, 3);
    expect(inherited.kind).toBe(KIND.internal);
    expect(attributesOf(inherited)).toMatchObject({ 'forkpoint.provenance': 'inherited' });
    expect(Object.keys(attributesOf(inherited)).filter((key) => key.startsWith('gen_ai.usage.'))).toEqual([]);
    expect(attributesOf(inherited)['forkpoint.recorded_usage.input_tokens']).toBeGreaterThan(0);
    const live = stepSpan(forkId, 5);
    expect(live.kind).toBe(KIND.client);
    expect(attributesOf(live)['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(attributesOf(live)['forkpoint.recorded_usage.input_tokens']).toBeUndefined();
    expect(attributesOf(stepSpan(forkId, 4))).toMatchObject({ 'forkpoint.provenance': 'override' });
  });

  it("links the strict replay to the incident's agent span, and counts none of its usage as spent", () => {
    expect(agentOf(replayId).links.map((link) => [link.traceId, link.spanId])).toEqual([
      [agentOf(INCIDENT).traceId, agentOf(INCIDENT).spanId],
    ]);
    expect(got.get(replayId)!.body).not.toContain('gen_ai.usage.');
    for (const span of stepSpans(replayId)) {
      expect(span.kind).toBe(KIND.internal);
      expect(attributesOf(span)).toMatchObject({
        'forkpoint.provenance': 'recorded',
        'forkpoint.mode': 'replay:strict',
        'forkpoint.source.run.id': INCIDENT,
      });
    }
    expect(attributesOf(stepSpan(replayId, 1))['forkpoint.recorded_usage.input_tokens']).toBeGreaterThan(0);
    expect(attributesOf(stepSpan(replayId, 9))['error.type']).toBe('VALIDATION_FAILED');
  });

  it('writes to a file exactly what the collector received, and the same bytes again on a second export', async () => {
    const file = join(folder.path, 'incident.otlp.json');
    const written = await run(['export', INCIDENT, '--otlp', file, '--json']);
    expect(written.exit, written.stderr).toBe(0);
    expect(JSON.parse(written.stdout)).toMatchObject({
      mode: 'export',
      runId: INCIDENT,
      format: 'otlp/json',
      file,
      spans: 10,
      payloads: 'reference',
    });
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(got.get(INCIDENT)!.body);
    const again = join(folder.path, 'again.otlp.json');
    expect((await run(['export', INCIDENT, '--otlp', again])).exit).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(text);
    const stdout = await run(['export', INCIDENT, '--otlp']);
    expect(stdout.stdout).toBe(`${text}\n`);
  });

  it('adds the opt-in content attributes with --content full, within the attribute length limit', async () => {
    const file = join(folder.path, 'full.otlp.json');
    expect((await run(['export', INCIDENT, '--otlp', file, '--content', 'full'])).exit).toBe(0);
    const exported = spansOf(JSON.parse(readFileSync(file, 'utf8')));
    const ocr = attributesOf(exported.find((span) => attributesOf(span)['forkpoint.step'] === 4)!);
    expect(JSON.parse(String(ocr['gen_ai.tool.call.arguments']))).toEqual({ document_id: expect.any(String) });
    expect(String(ocr['gen_ai.tool.call.result'])).toContain('"damage_area_cm2"');
    const chat = attributesOf(exported.find((span) => attributesOf(span)['forkpoint.step'] === 3)!);
    const [message] = JSON.parse(String(chat['gen_ai.output.messages'])) as {
      role: string;
      parts: { type: string }[];
    }[];
    expect(message).toMatchObject({ role: 'assistant', finish_reason: 'tool_use' });
    expect(message!.parts.map((part) => part.type)).toContain('tool_call');
    expect(attributesOf(exported[0]!)['forkpoint.payloads']).toBe('full');
  });

  it('refuses bad input with a typed one-line error, exit 2, nothing written', async () => {
    const file = join(folder.path, 'never.json');
    const unknown = await run(['export', 'abcdef12', '--otlp', file]);
    expect(unknown.exit).toBe(2);
    expect(unknown.stderr).toMatch(/^forkpoint: RUN_NOT_FOUND: /);
    for (const bad of ['ftp://127.0.0.1/v1/traces', 'http://']) {
      const result = await run(['export', INCIDENT, '--otlp', bad]);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(/^forkpoint: USAGE: an OTLP collector is an http:\/\/ or https:\/\/ URL/);
    }
    for (const flags of [['--tier', 'structural'], ['--plaintext'], ['-o', file]]) {
      const result = await run(['export', INCIDENT, '--otlp', ...flags]);
      expect(result.exit).toBe(2);
      expect(result.stderr).toMatch(/^forkpoint: USAGE: --otlp writes spans/);
    }
    expect((await run(['export', INCIDENT, '--content', 'full'])).stderr).toMatch(/^forkpoint: USAGE: /);
    expect((await run(['export', INCIDENT, '--otlp', file, '--timeout-ms', '50'])).stderr).toMatch(
      /^forkpoint: USAGE: --timeout-ms/,
    );
    expect(existsSync(file)).toBe(false);
  });
});
