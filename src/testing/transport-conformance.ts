import { describe, expect, it } from 'vitest';
import { ReplayDivergence } from '../analysis/index.js';
import type { Cassette } from '../cassette/index.js';
import type { ApprovalAnswer, ModelResponse, ToolResponse } from '../conversation/index.js';
import type { JsonValue } from '../json/index.js';
import { isJsonObject } from '../json/index.js';
import type { Answered, Transport } from '../transports/index.js';
import type { Provenance } from '../vocabulary/index.js';
import { itemAt } from './item-at.js';
import type { Expected } from './transport-checks.js';
import { asked, check, failureOf, freezeAll, settle } from './transport-checks.js';
import type { ScriptedCall, TransportFixture } from './transport-fixture.js';
import { transportFixture } from './transport-fixture.js';
import type { FindingReports } from './transport-findings-conformance.js';
import { describeFindingConformance } from './transport-findings-conformance.js';

/** What the suite must know of a transport to tell what it owes each call. */
export interface TransportFacts {
  /** `live`: it asks the fixture's world now; `recorded`: it serves a cassette and never asks the world (unless `onMiss` is `live`). */
  readonly answers: 'live' | 'recorded';
  /** The cassette it serves, when it is not the fixture's own (a structural replay serves the structural tier). */
  readonly cassette?: (fixture: TransportFixture) => Cassette;
  /** A request its cassette does not hold: `diverge` raises `REPLAY_DIVERGED`; `live` asks the world, and every later request too. */
  readonly onMiss?: 'diverge' | 'live';
  /**
   * What it does when its world would answer `refund` (not read-only): `call` it, call it and mark the answer
   * `sideEffect` (`mark`), let the simulator answer (`simulate`) or stop with `SIDE_EFFECT_BLOCKED` (`refuse`).
   * Default `call`.
   */
  readonly sideEffects?: 'call' | 'mark' | 'simulate' | 'refuse';
  /** The step whose answer it injects in place of its source's (a fork's override), and that answer. */
  readonly injects?: { readonly step: number; readonly response: ModelResponse | ToolResponse };
  /**
   * The approval step it answers itself (a fork's override, a person's answer), the answer, and the
   * provenance it gives it. Any other approval: from its cassette, or nobody's.
   */
  readonly answersApproval?: {
    readonly step: number;
    readonly answer: ApprovalAnswer;
    readonly provenance: 'override' | 'human';
  };
}

/** A transport under test: how to make one over a fixture, and what it is. */
export type TransportSubject = TransportFacts &
  (
    | { readonly reportsFindings?: false; create(fixture: TransportFixture): Transport }
    | { readonly reportsFindings: true; create(fixture: TransportFixture): Transport & FindingReports }
  );

/**
 * The behaviour every {@link Transport} must have, run over a scripted
 * fixture (see `TransportFixture`): what a model call and a tool call return
 * and where from, how failures and misses come back, that requests and
 * answers already given are left as they were, that each position gets its
 * own answer, what findings a replaying transport reports, and what a
 * transport may never do (ask the world when it serves a recording, call a
 * side-effecting tool the firewall holds back). Call it from a test file of
 * the implementation:
 *
 * @example
 * ```ts
 * describeTransportConformance('live', { answers: 'live', create: (fixture) => liveTransport(fixture.world) });
 * ```
 */
export function describeTransportConformance(name: string, subject: TransportSubject): void {
  const served = (fixture: TransportFixture): Cassette => subject.cassette?.(fixture) ?? fixture.cassette;
  const entryAt = (fixture: TransportFixture, kind: string, index: number) => {
    const entry = served(fixture).entries.find((candidate) => candidate.kind === kind && candidate.index === index);
    if (entry === undefined) throw new Error(`the served cassette has no ${kind}#${index}`);
    return entry;
  };
  const expected = (fixture: TransportFixture, scripted: ScriptedCall, live: boolean): Expected => {
    const { call } = scripted;
    const answer = (provenance: Provenance, response: JsonValue, asksWorld: boolean, sideEffect = false): Expected => ({
      outcome: 'answer',
      provenance,
      response,
      asksWorld,
      sideEffect,
    });
    if (scripted.type === 'approval') {
      const given = subject.answersApproval;
      if (given?.step === call.step) return answer(given.provenance, given.answer, false);
      // A recording serves the answer it holds; the world has nobody in it to ask.
      const recorded = entryAt(fixture, call.kind, call.index).response;
      // Served bound to the call it answers: a cassette of another form holds the hash only as a shape.
      const output = isJsonObject(recorded) && isJsonObject(recorded.output) ? recorded.output : {};
      if (!live) return answer('recorded', { ...output, requestHash: scripted.call.question.requestHash }, false);
      return { outcome: 'nobody', asksWorld: false };
    }
    if (subject.injects?.step === call.step) return answer('override', subject.injects.response, false);
    if (!live) return answer('recorded', entryAt(fixture, call.kind, call.index).response, false);
    if (scripted.type === 'model' || scripted.readOnly) return answer('live', scripted.live, true);
    switch (subject.sideEffects ?? 'call') {
      case 'call':
        return answer('live', scripted.live, true);
      case 'mark':
        return answer('live', scripted.live, true, true);
      case 'simulate':
        return answer('simulated', fixture.simulated, false);
      case 'refuse':
        return { outcome: 'throws', code: 'SIDE_EFFECT_BLOCKED', asksWorld: false };
    }
  };
  const startsLive = subject.answers === 'live';

  describe(`Transport conformance: ${name}`, () => {
    it('answers each call from its source in the neutral shape, each position its own answer, marked where it came from', async () => {
      const fixture = transportFixture();
      const transport = subject.create(fixture);
      for (const scripted of fixture.script)
        check(scripted, expected(fixture, scripted, startsLive), await settle(transport, scripted));
    });

    it('asks the world exactly for the calls it answers live, in order, and for nothing else', async () => {
      const fixture = transportFixture();
      const transport = subject.create(fixture);
      // Written down before asking, so that a request changed meanwhile is not its own yardstick.
      const wanted = asked(fixture.script.filter((scripted) => expected(fixture, scripted, startsLive).asksWorld));
      for (const scripted of fixture.script) await settle(transport, scripted);
      expect(fixture.asked).toEqual(wanted);
    });

    it('leaves every request as it was, whatever the world does with what it is given', async () => {
      const fixture = transportFixture();
      const transport = subject.create(fixture);
      for (const scripted of fixture.script) {
        const before = JSON.stringify(scripted.call);
        await settle(transport, scripted);
        expect(JSON.stringify(scripted.call), `${scripted.call.kind}#${scripted.call.index}`).toBe(before);
      }
    });

    it('answers requests that are frozen, as the run state they come from may be', async () => {
      const fixture = transportFixture();
      const transport = subject.create(fixture);
      for (const scripted of fixture.script) {
        freezeAll(scripted.call);
        check(scripted, expected(fixture, scripted, startsLive), await settle(transport, scripted));
      }
    });

    it('leaves the answers it gave as they were while it answers later calls', async () => {
      const fixture = transportFixture();
      const transport = subject.create(fixture);
      const given: Array<{ readonly answer: Answered<JsonValue>; readonly text: string }> = [];
      for (const scripted of fixture.script) {
        const settled = await settle(transport, scripted);
        if ('answer' in settled) given.push({ answer: settled.answer, text: JSON.stringify(settled.answer) });
      }
      expect(given.length).toBeGreaterThan(0);
      for (const { answer, text } of given) expect(JSON.stringify(answer)).toBe(text);
    });

    it('fails only with ForkpointErrors that name the call when its world is unreachable', async () => {
      const fixture = transportFixture({ worldDown: true });
      const transport = subject.create(fixture);
      for (const scripted of fixture.script) {
        const wanted = expected(fixture, scripted, startsLive);
        const settled = await settle(transport, scripted);
        if (!wanted.asksWorld) check(scripted, wanted, settled);
        else expect(failureOf(settled, scripted)).toEqual(expect.any(String));
      }
    });

    it(
      startsLive
        ? 'asks the world a request no recording holds'
        : subject.onMiss === 'live'
          ? 'asks the world a request its cassette does not hold, and every request after it'
          : 'raises a ReplayDivergence for a request its cassette does not hold, and asks no world',
      async () => {
        const fixture = transportFixture();
        const transport = subject.create(fixture);
        const first = itemAt(fixture.script, 0);
        const rest = fixture.script.slice(2);
        const miss = itemAt(fixture.misses, 0);
        const missed: ScriptedCall = { type: 'tool', ...miss, readOnly: true };
        check(first, expected(fixture, first, startsLive), await settle(transport, first));
        const settled = await settle(transport, missed);
        if (!startsLive && subject.onMiss !== 'live') {
          expect(failureOf(settled, missed)).toBe('REPLAY_DIVERGED');
          expect('error' in settled && settled.error instanceof ReplayDivergence).toBe(true);
          expect(fixture.asked).toEqual([]);
          return;
        }
        expect(settled).toEqual({ answer: { response: miss.live, provenance: 'live' } });
        const live = rest.filter((scripted) => expected(fixture, scripted, true).asksWorld);
        const wanted = asked([...(startsLive ? [first] : []), missed, ...live]);
        for (const scripted of rest)
          check(scripted, expected(fixture, scripted, true), await settle(transport, scripted));
        expect(fixture.asked).toEqual(wanted);
      },
    );

    it('keeps nothing from one transport to the next', async () => {
      const used = transportFixture();
      const earlier = subject.create(used);
      await settle(earlier, itemAt(used.script, 0));
      await settle(earlier, { type: 'tool', ...itemAt(used.misses, 0), readOnly: true });
      const fixture = transportFixture();
      const transport = subject.create(fixture);
      for (const scripted of fixture.script)
        check(scripted, expected(fixture, scripted, startsLive), await settle(transport, scripted));
    });

    if (subject.reportsFindings === true) describeFindingConformance((fixture) => subject.create(fixture), served);
  });
}
