import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/json/index.js';
import { isJsonArray } from '../../src/json/index.js';
import type { Message, ModelRequest } from '../../src/conversation/index.js';
import { StructuralHasher, shapeJson, shapeModelResponse } from '../../src/tiers/index.js';
import { isForkpointError } from '../../src/errors/index.js';
import { parseCassette, serializeCassette } from '../../src/cassette/index.js';
import { compactShapedStrings, expandShapedStrings } from '../../src/cassette/shaped-strings.js';
import { withIncident } from '../support/incident.js';

const json = fc.jsonValue({ maxDepth: 5 }) as fc.Arbitrary<JsonValue>;

// Walks a value and its shape together: same kinds, same keys, same lengths, same number classes.
function sameShape(value: JsonValue, shaped: JsonValue): boolean {
  if (typeof value === 'string')
    return typeof shaped === 'string' && shaped.length === value.length && /^a*$/.test(shaped);
  if (typeof value === 'number') {
    return (
      typeof shaped === 'number' &&
      Number.isInteger(shaped) === Number.isInteger(value) &&
      Math.sign(shaped) === Math.sign(value)
    );
  }
  if (value === null || typeof value === 'boolean') return shaped === value;
  if (isJsonArray(value))
    return (
      isJsonArray(shaped) && shaped.length === value.length && value.every((item, i) => sameShape(item, shaped[i]!))
    );
  if (shaped === null || typeof shaped !== 'object' || Array.isArray(shaped)) return false;
  const object: JsonObject = value;
  const shapedObject = shaped as JsonObject;
  const keys = Object.keys(object);
  return (
    keys.length === Object.keys(shapedObject).length &&
    keys.every((key) => key in shapedObject && sameShape(object[key]!, shapedObject[key]!))
  );
}

describe('the structural shape of a value', () => {
  it('keeps keys, array lengths, string lengths, number classes and signs, booleans and nulls', () => {
    expect(
      shapeJson({
        name: 'Marta',
        area: 2050,
        confidence: 0.38,
        refund: -12.5,
        debt: -3,
        zero: 0,
        ok: true,
        none: null,
        tags: ['x', 'yz'],
      }),
    ).toEqual({
      name: 'aaaaa',
      area: 1,
      confidence: 0.5,
      refund: -0.5,
      debt: -1,
      zero: 0,
      ok: true,
      none: null,
      tags: ['a', 'aa'],
    });
  });

  it('keeps a `__proto__` key as a field of its own (fast-check found this one)', () => {
    const value = JSON.parse('[{"__proto__":0,"b":"xy"}]') as JsonValue;
    expect(JSON.stringify(shapeJson(value))).toBe('[{"__proto__":0,"b":"aa"}]');
    const written = compactShapedStrings(JSON.parse('{"__proto__":"aaaaa"}') as JsonValue);
    expect(JSON.stringify(written)).toBe('{"__proto__":"a*5"}');
    expect(JSON.stringify(expandShapedStrings(written, { perString: 10, total: 100 }))).toBe('{"__proto__":"aaaaa"}');
  });

  it('is a shape of any JSON value, and shaping a shape changes nothing', () => {
    fc.assert(
      fc.property(json, (value) => {
        const shaped = shapeJson(value);
        expect(sameShape(value, shaped)).toBe(true);
        expect(shapeJson(shaped)).toEqual(shaped);
      }),
    );
  });

  it('drops the ids and signatures a provider mints, keeps the envelope, and keeps the token counts, which are no payload', () => {
    const usage = { inputTokens: 120, outputTokens: 7, cacheReadTokens: 4096, provider: { input_tokens: 120 } };
    const shaped = shapeModelResponse({
      id: 'msg_01',
      model: 'claude-opus-5',
      content: [
        { type: 'thinking', thinking: 'hm', signature: 'sig' },
        { type: 'redacted_thinking', data: 'EuYBCkQYAiJA' },
        { type: 'tool_use', id: 'toolu_1', name: 'ocr_document', input: { document_id: 'DOC-1' } },
        {
          type: 'provider',
          provider: 'anthropic',
          block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search' },
        },
        { type: 'text', text: 'ok', citations: [{ type: 'char_location', cited_text: 'Claim' }] },
      ],
      stopReason: 'tool_use',
      usage,
    });
    expect(shaped).toEqual({
      id: '',
      model: 'claude-opus-5',
      content: [
        { type: 'thinking', thinking: 'aa', signature: '' },
        { type: 'redacted_thinking', data: '' },
        { type: 'tool_use', id: '', name: 'ocr_document', input: { document_id: 'aaaaa' } },
        {
          type: 'provider',
          provider: 'anthropic',
          block: { type: 'server_tool_use', id: 'aaaaaaaaaa', name: 'aaaaaaaaaa' },
        },
        { type: 'text', text: 'aa', citations: [{ type: 'aaaaaaaaaaaaa', cited_text: 'aaaaa' }] },
      ],
      stopReason: 'tool_use',
      usage,
    });
  });
});

describe('structural request keys', () => {
  const request = (text: string, system = 'You triage claims.'): ModelRequest => ({
    model: 'm',
    system,
    messages: [{ role: 'user', content: [{ type: 'text', text }] } satisfies Message],
    tools: [],
    params: { maxTokens: 10 },
  });
  const hash = (value: ModelRequest) => new StructuralHasher().hashModelRequest(value).requestHash;

  it('are equal for requests that differ only in content, and differ when the shape does', () => {
    expect(hash(request('Triage CLM-91077'))).toBe(hash(request('Triage CLM-91002')));
    expect(hash(request('Triage CLM-91077'))).not.toBe(hash(request('Triage CLM-9107')));
    expect(hash(request('x', 'You triage claims.'))).toBe(hash(request('x', 'You triage cl4ims.')));
    expect(hash(request('x', 'You triage claims.'))).not.toBe(hash(request('x', 'You triage claims. Now: 10:00')));
    const tool = (input: JsonValue) =>
      new StructuralHasher().hashToolRequest({ tool: 'estimate_repair', input: input as never }).requestHash;
    expect(tool({ damage_area_cm2: 2050 })).toBe(tool({ damage_area_cm2: 205 }));
    expect(tool({ damage_area_cm2: 2050 })).not.toBe(tool({ damage_area_cm2: 205.5 }));
    expect(tool({ damage_area_cm2: 2050 })).not.toBe(tool({ damage_area_cm2: -2050 }));
  });
});

describe('the structural cassette of the incident', () => {
  it('holds no string of the run, is at most a tenth of the full one, and reads back as written', async () => {
    const { engine, incident } = await withIncident();
    const full = serializeCassette(await engine.cassette(incident.runId));
    const structural = serializeCassette(await engine.cassette(incident.runId, 'structural'));
    expect(Buffer.byteLength(structural) * 10).toBeLessThanOrEqual(Buffer.byteLength(full));
    for (const content of ['CLM-91077', 'Marta Lindqvist', 'POL-5531', 'DOC-77120', 'Skoda', 'hail', 'Roof panel']) {
      expect(full).toContain(content);
      expect(structural).not.toContain(content);
    }
    const parsed = parseCassette(structural, 'structural');
    expect(serializeCassette(parsed)).toBe(structural);
    expect(parsed).toMatchObject({ tier: 'structural', canonicalForm: 'forkpoint-structural/1', messages: [] });
    expect(parsed.entries.map((entry) => entry.kind)).toEqual(
      (await engine.cassette(incident.runId)).entries.map((entry) => entry.kind),
    );
  });

  it('refuses a string that would read back as a run of a, and a run longer than a file allows', async () => {
    const { engine, incident } = await withIncident();
    const cassette = await engine.cassette(incident.runId, 'structural');
    const sneaky = { ...cassette, agent: { ...cassette.agent, build: 'a*12' } };
    expect(() => serializeCassette(sneaky)).toThrow(/reads as a run of a/);
    const bomb = serializeCassette(cassette).replace(/"a\*\d+"/, '"a*999999999"');
    const caught = (() => {
      try {
        parseCassette(bomb, 'bomb');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(isForkpointError(caught, 'CASSETTE_INVALID')).toBe(true);
  });
});
