import { describe, expect, it } from 'vitest';
import { ReplayDivergence } from '../analysis/index.js';
import { isDivergence } from '../vocabulary/index.js';
import type { Cassette } from '../cassette/index.js';
import type { ReplayingTransport, Transport } from '../transports/index.js';
import { itemAt } from './item-at.js';
import { settle } from './transport-checks.js';
import type { ScriptedCall, TransportFixture } from './transport-fixture.js';
import { transportFixture } from './transport-fixture.js';

/** What a transport that reports findings (as a replaying one does) has besides `model` and `tool`. */
export type FindingReports = Pick<ReplayingTransport, 'divergences' | 'droppedCalls'>;

/** The findings part of the transport conformance suite: for transports that report them. */
export function describeFindingConformance(
  create: (fixture: TransportFixture) => Transport & FindingReports,
  served: (fixture: TransportFixture) => Cassette,
): void {
  const missOf = (fixture: TransportFixture, i: number): ScriptedCall => ({
    type: 'tool',
    ...itemAt(fixture.misses, i),
    readOnly: true,
  });

  describe('findings', () => {
    it('reports none for a script its cassette answered in full', async () => {
      const fixture = transportFixture();
      const transport = create(fixture);
      for (const scripted of fixture.script) await settle(transport, scripted);
      expect(transport.divergences()).toEqual([]);
      expect(transport.droppedCalls()).toEqual([]);
    });

    it('reports the recorded calls never asked for as dropped calls, in step order, and no miss', async () => {
      const fixture = transportFixture();
      const transport = create(fixture);
      for (const scripted of fixture.script.slice(0, 2)) await settle(transport, scripted);
      const dropped = transport.droppedCalls();
      for (const finding of dropped) expect(isDivergence(finding)).toBe(true);
      expect(
        dropped.map(({ classification, step, kind, index, actualHash, recordedHashes }) => ({
          classification,
          step,
          kind,
          index,
          actualHash,
          recordedHashes,
        })),
      ).toEqual(
        served(fixture)
          .entries.slice(2)
          .map(({ step, kind, index, requestHash: hash }) => ({
            classification: 'dropped-call',
            step,
            kind,
            index,
            actualHash: null,
            recordedHashes: [hash],
          })),
      );
      expect(transport.divergences()).toEqual([]);
    });

    it('reports a miss once, as the divergence it raised if it raised one, and not also as a dropped call', async () => {
      const fixture = transportFixture();
      const transport = create(fixture);
      await settle(transport, itemAt(fixture.script, 0));
      const settled = await settle(transport, missOf(fixture, 0));
      const recorded = itemAt(served(fixture).entries, 1);
      const divergences = transport.divergences();
      expect(divergences).toHaveLength(1);
      const finding = itemAt(divergences, 0);
      expect(isDivergence(finding)).toBe(true);
      expect(finding).toMatchObject({
        classification: 'changed',
        step: 2,
        kind: 'lookup',
        index: 0,
        recordedHashes: [recorded.requestHash],
      });
      expect(finding.message).toContain('lookup#0 (step 2)');
      if ('error' in settled) {
        expect(settled.error).toBeInstanceOf(ReplayDivergence);
        if (settled.error instanceof ReplayDivergence) expect(settled.error.divergence).toEqual(finding);
      }
      const positions = transport.droppedCalls().map(({ kind, index }) => `${kind}#${index}`);
      expect(positions).not.toContain('lookup#0');
    });

    it('keeps the findings it reported as they were when it reported them', async () => {
      const fixture = transportFixture();
      const transport = create(fixture);
      await settle(transport, itemAt(fixture.script, 0));
      await settle(transport, missOf(fixture, 0));
      const divergences = transport.divergences();
      const dropped = transport.droppedCalls();
      const texts = [JSON.stringify(divergences), JSON.stringify(dropped)];
      await settle(transport, missOf(fixture, 1));
      expect(transport.divergences()).toHaveLength(2);
      expect([JSON.stringify(divergences), JSON.stringify(dropped)]).toEqual(texts);
    });
  });
}
