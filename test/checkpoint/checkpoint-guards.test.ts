import { describe, expect, it } from 'vitest';
import { isCheckpointDelta, isFullCheckpoint } from '../../src/checkpoint/checkpoint-guards.js';
import type { FullCheckpoint } from '../../src/checkpoint/index.js';
import type { JsonValue } from '../../src/json/index.js';
import { MACHINE_VERSION, initialContext } from '../../src/machine/index.js';

const { messages, ...context } = initialContext({
  input: { claimId: 'CLM-1' },
  system: 's',
  model: 'm',
  firstMessage: 'hi',
});
const full: FullCheckpoint = {
  machineVersion: MACHINE_VERSION,
  value: 'awaitingModel',
  context: { ...context, messageCount: messages.length },
};

const { messageCount: _count, ...withoutMessageCount } = full.context;

describe('the checkpoint guards', () => {
  it('take a full checkpoint as the writer writes it, failure and retry count included', () => {
    expect(isFullCheckpoint(full)).toBe(true);
    const failed = { ...full.context, error: { code: 'STEP_CAP_REACHED', message: 'cap', step: 3 }, failedAttempts: 1 };
    expect(isFullCheckpoint({ ...full, value: 'failed', context: failed })).toBe(true);
  });

  it.each<[string, JsonValue]>([
    ['no machine version', { value: full.value, context: full.context }],
    ['a state the machine does not have', { ...full, value: 'sideways' }],
    ['a step that is not a number', { ...full, context: { ...full.context, step: '0' } }],
    ['no system prompt', { ...full, context: { ...full.context, system: null } }],
    [
      'a pending call that is not a tool_use part',
      { ...full, context: { ...full.context, pending: [{ type: 'text', text: 'x' }] } },
    ],
    [
      'an error with a code forkpoint does not have',
      { ...full, context: { ...full.context, error: { code: 'OOPS', message: 'x', step: 1 } } },
    ],
    ['call counts that are not numbers', { ...full, context: { ...full.context, calls: { model: 'one' } } }],
    ['a missing field', { ...full, context: withoutMessageCount }],
  ])('refuse a full checkpoint with %s', (_what, value) => {
    expect(isFullCheckpoint(value)).toBe(false);
  });

  it('take a delta of any of the context fields, and refuse one of another type', () => {
    for (const delta of [
      {},
      { value: 'done' },
      { context: { step: 2, calls: { model: 1 } } },
      { context: { outcome: { ok: true } } },
    ])
      expect(isCheckpointDelta(delta)).toBe(true);
    for (const delta of [null, [], { value: 'sideways' }, { context: { step: '2' } }, { context: [] }])
      expect(isCheckpointDelta(delta)).toBe(false);
  });
});
