import { describe, expect, it } from 'vitest';
import { RequestHasher } from '../../src/cassette/index.js';
import type { ApprovalAnswer, ToolUsePart } from '../../src/conversation/index.js';
import type { AgentSnapshot, CompletedStep } from '../../src/driver/index.js';
import { driveRun, machineOf } from '../../src/driver/index.js';
import { ForkpointError } from '../../src/errors/index.js';
import { initialSnapshot, nextSnapshot } from '../../src/machine/index.js';
import type { Transport } from '../../src/transports/index.js';
import { refundBuild } from '../support/refund-agent.js';

const supervised = refundBuild('supervised');
const machine = machineOf(supervised);
const refundCall: ToolUsePart = {
  type: 'tool_use',
  id: 'toolu_refund',
  name: 'refund',
  input: { order_id: 'ORD-1', amount: 120 },
};
const refundHash = new RequestHasher().hashToolRequest({ tool: 'refund', input: refundCall.input }).requestHash;

/** The supervised desk's machine right after the model asked to refund 120: it awaits a person's answer. */
function waitingSnapshot(): AgentSnapshot {
  const start = initialSnapshot(machine, {
    input: { orderId: 'ORD-1' },
    system: 's',
    model: 'refund-model',
    firstMessage: 'go',
  });
  return nextSnapshot(machine, start, {
    type: 'model.responded',
    response: {
      id: 'msg_1',
      model: 'refund-model',
      content: [refundCall],
      stopReason: 'tool_use',
      usage: { inputTokens: 1, outputTokens: 1 },
    },
  });
}

/** A transport that answers every approval with `answer` and counts the tool calls it is asked to make. */
function answering(answer: ApprovalAnswer | undefined) {
  const made: string[] = [];
  const transport: Transport = {
    // The drive ends at the next model call: what comes after the refund is no part of these tests.
    model: () => Promise.reject(new ForkpointError('PROVIDER_FAILED', 'the provider is not part of this test')),
    tool: (call) => {
      made.push(call.request.tool);
      return Promise.resolve({ response: { output: { refund_id: 'RF-1' }, isError: false }, provenance: 'live' });
    },
    approval: () => Promise.resolve(answer === undefined ? undefined : { response: answer, provenance: 'human' }),
  };
  return { transport, made };
}

const drive = (snapshot: AgentSnapshot, transport: Transport) => {
  const steps: CompletedStep[] = [];
  return driveRun({
    build: supervised,
    machine,
    snapshot,
    transport,
    hasher: new RequestHasher(),
    onStep: (step) => {
      steps.push(step);
      return Promise.resolve();
    },
  }).then((result) => ({ result, steps }));
};

const answer = (requestHash: string): ApprovalAnswer => ({
  approved: true,
  by: 'dana',
  at: '2026-03-04T10:00:00.000Z',
  note: null,
  requestHash,
});

describe('an approval, as the driver applies it', () => {
  it('stops the drive at rest when nobody can answer, with no step made', async () => {
    const { transport, made } = answering(undefined);
    const { result, steps } = await drive(waitingSnapshot(), transport);
    expect(result).toMatchObject({ waitingForApproval: true, stoppedBy: null });
    expect(result.snapshot.value).toBe('awaitingApproval');
    expect(steps).toEqual([]);
    expect(made).toEqual([]);
  });

  it('asks with a question bound to the call hash, and makes the call once the answer names it', async () => {
    const { transport, made } = answering(answer(refundHash));
    const { steps } = await drive(waitingSnapshot(), transport);
    expect(steps[0]).toMatchObject({
      kind: 'approval',
      index: 0,
      provenance: 'human',
      request: { tool: 'approval', input: { tool: 'refund', input: refundCall.input, requestHash: refundHash } },
    });
    expect(steps[1]).toMatchObject({ kind: 'refund', requestHash: refundHash });
    expect(made).toEqual(['refund']);
  });

  it('never applies an answer about another call: CALL_NOT_APPROVED, and the call is not made', async () => {
    const { transport, made } = answering(answer('ffffffffffffffff'));
    const { result, steps } = await drive(waitingSnapshot(), transport);
    expect(result.stoppedBy?.failure).toMatchObject({ code: 'CALL_NOT_APPROVED', step: 2 });
    expect(steps).toEqual([]);
    expect(made).toEqual([]);
  });

  it('refuses to make an approved call whose request no longer hashes as approved', async () => {
    // A checkpoint whose approval was given for other arguments (written by a changed canonical form, or by hand).
    const approved = nextSnapshot(machine, waitingSnapshot(), {
      type: 'approval.answered',
      call: refundCall,
      answer: answer('0000000000000000'),
    });
    expect(approved.context.approved).toEqual({ toolUseId: refundCall.id, requestHash: '0000000000000000' });
    const { transport, made } = answering(undefined);
    const { result } = await drive(approved, transport);
    expect(result.stoppedBy?.failure).toMatchObject({ code: 'CALL_NOT_APPROVED', step: 3 });
    expect(result.stoppedBy?.error.message).toContain(`hashes to ${refundHash}`);
    expect(made).toEqual([]);
  });
});
