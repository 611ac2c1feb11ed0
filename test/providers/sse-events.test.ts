import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSseText, sseJsonOf, type SseEvent } from '../../src/providers/sse-events.js';
import { thrown } from '../support/thrown.js';

describe('parseSseText', () => {
  it('reads named and unnamed events, each ended by a blank line', () => {
    const text = 'event: ping\ndata: {}\n\ndata: {"a":1}\n\n';
    expect(parseSseText(text)).toEqual([{ event: 'ping', data: '{}' }, { data: '{"a":1}' }]);
  });

  it('joins the data lines of one event with \\n, keeping an empty data line', () => {
    expect(parseSseText('data: one\ndata:\ndata: three\n\n')).toEqual([{ data: 'one\n\nthree' }]);
  });

  it('drops one space after the colon, and only one', () => {
    expect(parseSseText('data:  two spaces\ndata:none\n\n')).toEqual([{ data: ' two spaces\nnone' }]);
  });

  it('takes CRLF, CR and LF line endings, mixed in one stream', () => {
    const text = 'event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\rdata: 3\n\n';
    expect(parseSseText(text)).toEqual([{ event: 'a', data: '1' }, { event: 'b', data: '2' }, { data: '3' }]);
  });

  it('passes over comments, id, retry and unknown fields, and a line with no colon is a field with no value', () => {
    const text = ': keep-alive\nid: 7\nretry: 100\nfoo: bar\ndata: x\n:another\ndata\n\n';
    expect(parseSseText(text)).toEqual([{ data: 'x\n' }]);
  });

  it('dispatches no event for a block without data, and forgets its name', () => {
    expect(parseSseText('event: lonely\n\ndata: after\n\n')).toEqual([{ data: 'after' }]);
  });

  it('treats an empty event name as no name', () => {
    expect(parseSseText('event:\ndata: x\n\n')).toEqual([{ data: 'x' }]);
  });

  it('keeps the last event name of a block', () => {
    expect(parseSseText('event: first\nevent: second\ndata: x\n\n')).toEqual([{ event: 'second', data: 'x' }]);
  });

  it('skips one byte order mark at the start of the stream only', () => {
    expect(parseSseText('\uFEFFdata: x\n\ndata: \uFEFFy\n\n')).toEqual([{ data: 'x' }, { data: '\uFEFFy' }]);
  });

  it('never dispatches an event the stream ended inside (no blank line after it), as the spec and the SDKs do', () => {
    expect(parseSseText('data: whole\n\ndata: cut')).toEqual([{ data: 'whole' }]);
    expect(parseSseText('data: whole\n\ndata: cut\n')).toEqual([{ data: 'whole' }]);
    expect(parseSseText('data: whole\n\nevent: x\ndata: cut\r')).toEqual([{ data: 'whole' }]);
  });

  it('reads nothing from an empty stream, or from one of comments', () => {
    expect(parseSseText('')).toEqual([]);
    expect(parseSseText(':a\n:b\n\n')).toEqual([]);
  });

  it('gives back what a writer wrote, whatever the events, line endings and comments (property)', () => {
    const line = fc.string({ unit: fc.constantFrom('a', ' ', ':', 'é', '{', '"', '\uFEFF', 'ß') });
    const event = fc.record(
      {
        event: fc.string({ minLength: 1, unit: fc.constantFrom('a', 'b', '_', '.', ':', ' ') }),
        data: fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n')),
      },
      { requiredKeys: ['data'] },
    );
    const written = fc.record({
      event,
      ending: fc.constantFrom('\n', '\r', '\r\n'),
      comment: fc.option(line, { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(written, { maxLength: 8 }), (events) => {
        const text = events
          .map(({ event: { event: name, data }, ending, comment }) => {
            const lines = [
              ...(comment === undefined ? [] : [`:${comment}`]),
              ...(name === undefined ? [] : [`event: ${name}`]),
              ...data.split('\n').map((piece) => `data: ${piece}`),
            ];
            return lines.map((text) => text + ending).join('') + ending;
          })
          .join('');
        const expected: SseEvent[] = events.map(({ event: { event: name, data } }) =>
          name === undefined ? { data } : { event: name, data },
        );
        expect(parseSseText(text)).toEqual(expected);
      }),
    );
  });
});

describe('sseJsonOf', () => {
  it('parses the data of an event as JSON', () => {
    expect(sseJsonOf({ data: '{"type":"ping"}' }, 0, 'anthropic')).toEqual({ type: 'ping' });
  });

  it('refuses data that is not JSON as PROVIDER_UNMAPPED, naming the event by its position', () => {
    const error = thrown(() => sseJsonOf({ data: '{"type":' }, 3, 'anthropic'));
    expect(error.code).toBe('PROVIDER_UNMAPPED');
    expect(error.details).toEqual({ field: 'event 3 of the stream', data: '{"type":' });
  });
});
