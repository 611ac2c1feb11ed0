import type { Scenario } from '../../src/index.js';

/**
 * The incident of CLM-91077 as `forkpoint demo` tells it (`npm start`): OCR
 * v1 reads a folded assessor form as 205 cm2, the baseline build approves a
 * negative payout, the patched build refers low-confidence readings, and a
 * fork with the corrected reading shows what the run would have done; then
 * the supervised build pays the corrected claim once a reviewer approves.
 */
export const claimsStory: NonNullable<Scenario['story']> = {
  incident: {
    runId: '9b40c1d5',
    input: { claimId: 'CLM-91077' },
    at: '2026-03-04',
    build: 'baseline',
    seed: 20260304,
    // The evening of 4 March.
    recordedAt: '2026-03-04T17:42:00.000Z',
  },
  fix: 'patched',
  volatile: 'timestamped',
  // Two weeks of every claim: the folded-form misread is a class, not one run.
  period: { from: '2026-03-01', until: '2026-03-14' },
  laterAt: '2026-03-09',
  sideEffects: 'estimate_repair=simulate',
  fork: {
    atStep: 4,
    override: { kind: 'tool-merge', patch: { fields: { damage_area_cm2: { value: 2050, confidence: 0.97 } } } },
  },
  costVerdict: 'refer',
  // The supervised build pays what it approves. On 9 March OCR v2 reads the folded form as 2050 cm2: an estimate
  // of EUR 2403 less the deductible of 500 is a payout of 1903, above its limit of EUR 1,000.
  approval: {
    runId: 'a0091077',
    build: 'supervised',
    input: { claimId: 'CLM-91077' },
    at: '2026-03-09',
    seed: 20260309,
    reviewer: 'dana@claims.example',
    note: "Photos match the assessor's form; roof panel replacement confirmed.",
    rejection: "The holder's bank details changed last week; call the holder before paying.",
    text: {
      chapter:
        'A person in the loop: the supervised build pays what it approves with issue_payment, and a payout above EUR 1,000 waits for a reviewer. Record CLM-91077 on 2026-03-09 with it.',
      waiting:
        'The payout of EUR 1903 is above the limit: the run stopped at rest before the payment, and nothing is paid until a person answers. No process waits for it.',
      approved:
        'The answer is step 10, bound to the request hash of that exact call; the payment was made once, live, and the run went on in place as attempt 2.',
      replayed:
        'A strict replay asks nobody: the answer is an observation like any other, and a replay of the approved run pays nothing.',
      rejected:
        'Had the reviewer said no, the model would have seen the rejection as the result of its call and referred the claim to a human assessor: nothing paid.',
    },
  },
  text: {
    chapters: {
      record: 'Record the incident: CLM-91077 on 2026-03-04 with the baseline build.',
      reexecute: 'Re-execute on 2026-03-09 with the patched build, and with baseline as the control arm.',
      replay: 'Replay strictly over the recorded observations: patched, then baseline.',
      fork: 'Fork the incident at step 4 with the corrected OCR reading (2050 at 0.97), and compare the branches.',
      volatile: 'Replay strictly after a timestamp is added to the system prompt (build timestamped).',
      synthetic: 'Synthetic claims, kept without expiry: score baseline and patched on the hand-written suite.',
    },
    traceFailure: (step) =>
      `The failure at step ${step ?? '?'} traces back to step 4, where OCR v1 read the folded form as 205.`,
    firewall:
      "A re-execution meets that day's world behind the side-effect firewall: estimate_repair registers an estimate, so both ask its simulator by name (--side-effects estimate_repair=simulate).",
    reexecuted: (controlCompleted) =>
      controlCompleted
        ? 'Both arms are green: OCR v2 reads 2050 now, so the failing trajectory no longer reproduces and the fix was never exercised.'
        : "The control arm still fails on today's world.",
    replayed:
      'Over the same observations the patched build refers the claim and the baseline still fails at step 9: the fix is confirmed on the recorded trajectory.',
    forkBlocked: 'The firewall held: a fork never registers a second estimate unless asked by name.',
    volatileReplayed:
      'The first request already differs: the clock in the prompt breaks cassette matching, and the prompt cache, which matches the same prefix.',
    shapesReplayed:
      'The shape still checks the harness: baseline follows the recorded trajectory, and the timestamped prompt is caught without a single payload kept.',
    syntheticCost: (count, ids) =>
      `The 0.55 threshold refers ${count} legitimate faint forms that baseline approves correctly: ${ids.join(', ')}.`,
  },
};
