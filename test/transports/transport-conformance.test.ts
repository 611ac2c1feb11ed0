import { CassetteIndex } from '../../src/cassette/index.js';
import type { SideEffectPolicy } from '../../src/firewall/index.js';
import { structuralKeys } from '../../src/modes/structural-keys.js';
import type { TransportFixture } from '../../src/testing/index.js';
import { describeTransportConformance } from '../../src/testing/index.js';
import { structuralCassetteOf } from '../../src/tiers/index.js';
import type { Transport } from '../../src/transports/index.js';
import {
  firewalledTransport,
  liveTransport,
  overrideTransport,
  replayingTransport,
} from '../../src/transports/index.js';

const RUN_ID = '0000feed';
const firewalled = (fixture: TransportFixture, choice: SideEffectPolicy['default']): Transport =>
  firewalledTransport({
    live: liveTransport(fixture.world),
    tools: fixture.tools,
    policy: { default: choice, tools: {} },
    mode: 'fork',
  });

describeTransportConformance('live', { answers: 'live', create: (fixture) => liveTransport(fixture.world) });

describeTransportConformance('replaying, strict', {
  answers: 'recorded',
  onMiss: 'diverge',
  reportsFindings: true,
  create: (fixture) =>
    replayingTransport({ mode: 'strict', index: new CassetteIndex(fixture.cassette), runId: RUN_ID }),
});

describeTransportConformance('replaying, fidelity stopping at a miss', {
  answers: 'recorded',
  onMiss: 'diverge',
  reportsFindings: true,
  create: (fixture) =>
    replayingTransport({ mode: 'fidelity', onMiss: 'stop', index: new CassetteIndex(fixture.cassette), runId: RUN_ID }),
});

describeTransportConformance('replaying, fidelity going live behind the firewall', {
  answers: 'recorded',
  onMiss: 'live',
  sideEffects: 'refuse',
  reportsFindings: true,
  create: (fixture) =>
    replayingTransport({
      mode: 'fidelity',
      onMiss: 'live',
      live: firewalled(fixture, 'refuse'),
      index: new CassetteIndex(fixture.cassette),
      runId: RUN_ID,
    }),
});

describeTransportConformance('replaying, structural', {
  answers: 'recorded',
  onMiss: 'diverge',
  reportsFindings: true,
  cassette: (fixture) => structuralCassetteOf(fixture.cassette, null),
  create: (fixture) =>
    replayingTransport({
      mode: 'strict',
      index: new CassetteIndex(structuralCassetteOf(fixture.cassette, null)),
      runId: RUN_ID,
      keys: structuralKeys(),
    }),
});

const injected = { output: { error: 'the order service is down' }, isError: true } as const;
describeTransportConformance('override, over the live world', {
  answers: 'live',
  injects: { step: 4, response: injected },
  create: (fixture) =>
    overrideTransport({ step: 4, answer: { type: 'tool', response: injected }, live: liveTransport(fixture.world) }),
});

describeTransportConformance('firewalled, refusing side effects', {
  answers: 'live',
  sideEffects: 'refuse',
  create: (fixture) => firewalled(fixture, 'refuse'),
});

describeTransportConformance('firewalled, simulating side effects', {
  answers: 'live',
  sideEffects: 'simulate',
  create: (fixture) => firewalled(fixture, 'simulate'),
});

describeTransportConformance('firewalled, letting side effects through by name', {
  answers: 'live',
  sideEffects: 'mark',
  create: (fixture) => firewalled(fixture, 'live'),
});

// What if the reviewer had said no? The fork answers approval#0 (step 5) otherwise.
const rejected = {
  approved: false,
  by: 'dana',
  at: '2026-03-04T09:00:00.000Z',
  note: 'not this order',
  requestHash: 'aaaaaaaaaaaaaaaa',
};
describeTransportConformance('override, answering an approval otherwise', {
  answers: 'live',
  answersApproval: { step: 5, answer: rejected, provenance: 'override' },
  create: (fixture) =>
    overrideTransport({ step: 5, answer: { type: 'approval', answer: rejected }, live: liveTransport(fixture.world) }),
});

describeTransportConformance("a person's answer, over the firewalled world", {
  answers: 'live',
  sideEffects: 'refuse',
  answersApproval: { step: 5, answer: { ...rejected, approved: true, note: null }, provenance: 'human' },
  create: (fixture) =>
    overrideTransport({
      step: 5,
      answer: { type: 'approval', answer: { ...rejected, approved: true, note: null } },
      live: firewalled(fixture, 'refuse'),
      provenance: 'human',
    }),
});
