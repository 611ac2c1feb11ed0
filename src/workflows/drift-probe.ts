import { APPROVAL_KIND } from '../conversation/index.js';
import type { ToolSpec } from '../agent/index.js';
import type { FieldChange } from '../vocabulary/index.js';
import { diffJson } from '../analysis/index.js';
import { stableJson, isJsonObject } from '../json/index.js';
import type { JsonValue } from '../json/index.js';
import { liveTransport } from '../transports/index.js';
import type { World } from '../world/index.js';
import type { Engine } from '../engine/index.js';

/** What {@link probeDrift} needs. */
export interface DriftOptions {
  readonly runId: string;
  /** The tools as the build declares them: only `readOnly` ones are asked again. */
  readonly tools: readonly ToolSpec[];
  /** The live world to ask; its model is never asked. */
  readonly world: World;
}

/** One recorded tool step, asked again or not. */
export type DriftStep = {
  readonly step: number;
  readonly kind: string;
  readonly index: number;
} & (
  | { readonly status: 'unchanged' }
  | { readonly status: 'changed'; readonly changes: readonly FieldChange[] }
  | { readonly status: 'skipped'; readonly reason: string }
);

/** What the world of another date answers to a run's recorded tool requests. */
export interface DriftReport {
  readonly mode: 'drift';
  readonly runId: string;
  /** The world date the run was recorded against. */
  readonly recordedWorldAt: string | null;
  /** The date of the world asked now, as it states it. */
  readonly worldAt: string | null;
  /** Every tool step of the recorded trajectory, in order. */
  readonly steps: readonly DriftStep[];
  readonly changed: number;
  readonly unchanged: number;
  readonly skipped: number;
}

/**
 * The drift probe: walks a recorded trajectory without leaving it (the agent
 * is not re-run, the model is never asked) and asks the world of `at` every
 * read-only tool request the run made, in order, reporting each answer that
 * changed with a field diff. Tools not marked read-only are never called: a
 * probe must not register a second repair estimate. It writes no run.
 */
export async function probeDrift(engine: Engine, options: DriftOptions): Promise<DriftReport> {
  const run = await engine.getRun(options.runId);
  // An expired full tier reads back with no steps: only then is the cassette read, for the CASSETTE_EXPIRED
  // that names what remains (a fork expires no later than its parent, so this covers the lineage too).
  if (run.retention.expired) await engine.cassette(run.runId);
  const live = liveTransport(options.world);
  const specs = new Map(options.tools.map((tool) => [tool.name, tool]));
  const steps: DriftStep[] = [];
  for (const view of run.steps) {
    if (view.kind === 'model') continue;
    const where = { step: view.step, kind: view.kind, index: view.index };
    const spec = specs.get(view.kind);
    if (view.kind === APPROVAL_KIND) {
      steps.push({
        ...where,
        status: 'skipped',
        reason: "a person's answer, not the world's: there is nothing to ask again",
      });
    } else if (spec === undefined) {
      steps.push({ ...where, status: 'skipped', reason: `the build declares no tool ${view.kind}` });
    } else if (!spec.readOnly) {
      steps.push({ ...where, status: 'skipped', reason: 'not read-only: asking again would change the world' });
    } else if (view.provenance === 'override') {
      steps.push({ ...where, status: 'skipped', reason: "a fork's override, not an answer of the world" });
    } else {
      // A tool step's request is `{ tool, input }` as its row stores it.
      const input = isJsonObject(view.request) ? view.request.input : undefined;
      const answer = await live.tool({
        ...where,
        requestHash: '',
        canonical: '',
        request: { tool: view.kind, input: isJsonObject(input) ? input : {} },
      });
      const now = answer.response;
      const same = stableJson(view.response) === stableJson(now);
      steps.push(
        same
          ? { ...where, status: 'unchanged' }
          : { ...where, status: 'changed', changes: changesBetween(view.response, now) },
      );
    }
  }
  const count = (status: DriftStep['status']) => steps.filter((step) => step.status === status).length;
  return {
    mode: 'drift',
    runId: run.runId,
    recordedWorldAt: run.worldAt,
    worldAt: options.world.worldAt ?? null,
    steps,
    changed: count('changed'),
    unchanged: count('unchanged'),
    skipped: count('skipped'),
  };
}

// Between two answers that are both results or both errors, the outputs are what changed: diff those.
function changesBetween(recorded: JsonValue, now: JsonValue): readonly FieldChange[] {
  if (isJsonObject(recorded) && isJsonObject(now) && recorded.isError === now.isError)
    return diffJson(recorded.output, now.output);
  return diffJson(recorded, now);
}
