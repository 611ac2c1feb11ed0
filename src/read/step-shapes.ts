import type { ObservationClassifier } from '../agent/index.js';
import type { ModelResponse } from '../conversation/index.js';
import { isJsonObject } from '../json/index.js';
import type { JsonObject } from '../json/index.js';
import type { StepShape } from '../signature/index.js';
import { modelShapeOf, toolShapeOf } from '../signature/index.js';
import type { StepView } from './run-view.js';

/**
 * The shapes a failure signature keeps of steps read back (see
 * `SignatureTally`), as the driver's tally makes them when the steps commit:
 * what a fork or a resume starts its signature from.
 */
export function stepShapesOf(steps: readonly StepView[], classify?: ObservationClassifier): StepShape[] {
  return steps.map((step) => {
    // A stored model response is the response as it came (see StepView); a tool's is `{ output, isError }`.
    if (step.kind === 'model') return modelShapeOf(step.response as ModelResponse);
    const response = isJsonObject(step.response) ? step.response : {};
    const request = isJsonObject(step.request) ? step.request : {};
    const input: JsonObject = isJsonObject(request.input) ? request.input : {};
    return toolShapeOf(
      { tool: step.kind, input, output: response.output ?? null, isError: response.isError === true },
      classify,
    );
  });
}
