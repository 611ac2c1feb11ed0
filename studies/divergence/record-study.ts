import type { AgentBuild } from '../../src/agent/index.js';
import type { Engine } from '../../src/engine/index.js';
import type { RunStatus } from '../../src/vocabulary/index.js';
import { parseCapturePolicy } from '../../src/retention/index.js';
import { baseline, timestamped } from '../../scenarios/claims-triage/builds.js';
import { openClaimsWorld } from '../../scenarios/claims-triage/world/open-world.js';
import { olderBaseline } from './older-baseline.js';

/** The day every run of the study is recorded on: the day before the OCR service moved to model v2. */
export const STUDY_AT = '2026-03-04';

/** Which code a study run was recorded with. */
export type StudyRelease = 'baseline' | 'timestamped' | 'older-baseline';

/** One run of the study as planned. */
export interface PlannedStudyRun {
  readonly claimId: string;
  readonly release: StudyRelease;
  /** Pins the model's sampling, so the study records the same runs every time. */
  readonly seed: number;
  /** Keep only the structural tier: the report must skip this run, whose payloads are gone. */
  readonly structuralOnly?: boolean;
}

/** One run of the study as recorded. */
export interface StudyRun extends PlannedStudyRun {
  readonly runId: string;
  readonly status: RunStatus;
}

const RELEASES: Readonly<Record<StudyRelease, AgentBuild>> = { baseline, timestamped, 'older-baseline': olderBaseline };

const plan = (release: StudyRelease, claims: readonly string[], seed: number): PlannedStudyRun[] =>
  claims.map((claimId, i) => ({ claimId, release, seed: seed + i }));

/**
 * The study, chosen so that every source of divergence the drifting world can
 * produce shows up: every claim with `baseline`, some with a second seed (the
 * disputed CLM-91069, whose world never moves, is the one that can follow its
 * recording to the end), a few with `timestamped` (the time in the prompt), a
 * few with an older release of `baseline` (the code moved), and one kept only
 * in its structural tier (it cannot be re-executed).
 */
export const STUDY_PLAN: readonly PlannedStudyRun[] = [
  ...plan(
    'baseline',
    [
      'CLM-91077',
      'CLM-91002',
      'CLM-91013',
      'CLM-91024',
      'CLM-91035',
      'CLM-91046',
      'CLM-91058',
      'CLM-91069',
      'CLM-91080',
      'CLM-91091',
      'CLM-91103',
    ],
    101,
  ),
  ...plan('baseline', ['CLM-91077', 'CLM-91002', 'CLM-91058', 'CLM-91069', 'CLM-91080', 'CLM-91091'], 201),
  ...plan('timestamped', ['CLM-91077', 'CLM-91013', 'CLM-91035', 'CLM-91103'], 301),
  ...plan('older-baseline', ['CLM-91002', 'CLM-91024', 'CLM-91046', 'CLM-91080'], 401),
  { claimId: 'CLM-91002', release: 'baseline', seed: 501, structuralOnly: true },
];

/** Options of {@link recordDivergenceStudy}. */
export interface RecordStudyOptions {
  /** The scenario directory stored with each run, so the CLI can load its builds (default `scenarios/claims-triage`). */
  readonly scenario?: string;
  /** Told after each recorded run. */
  readonly onRun?: (done: number, total: number) => void;
}

/**
 * Records the divergence study into `engine`: {@link STUDY_PLAN}, every run on
 * {@link STUDY_AT}. Re-executing these runs on a later day with today's builds
 * (`forkpoint divergence-report --all-recorded --at 2026-03-09`) shows every
 * source of divergence: tool responses (OCR v2, a settled claim, an amended
 * policy, a re-scan, new prices), model sampling, the timestamp in the
 * prompt, the older release's prompt, and runs that do not diverge at all.
 */
export async function recordDivergenceStudy(engine: Engine, options: RecordStudyOptions = {}): Promise<StudyRun[]> {
  const scenario = options.scenario ?? 'scenarios/claims-triage';
  const skipFullTier = parseCapturePolicy('errors+sample:0');
  const runs: StudyRun[] = [];
  for (const planned of STUDY_PLAN) {
    const run = await engine.record({
      agent: RELEASES[planned.release],
      world: openClaimsWorld({ at: STUDY_AT, seed: planned.seed, latencyMs: 0 }),
      input: { claimId: planned.claimId },
      scenario,
      ...(planned.structuralOnly === true ? { capture: skipFullTier } : {}),
    });
    runs.push({ ...planned, runId: run.runId, status: run.status });
    options.onRun?.(runs.length, STUDY_PLAN.length);
  }
  return runs;
}
