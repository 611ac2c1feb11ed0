export {
  MODEL_OVERRIDE_KINDS,
  TOOL_OVERRIDE_KINDS,
  contextOverrideOf,
  type ContextOverride,
  type ForkOverride,
  type ForkOverrideKind,
} from './fork-override.js';
export { parseForkOverride } from './parse-fork-override.js';
export { applyOverride, type AppliedOverride, type OverrideTarget } from './apply-override.js';
export { editOverride, type ForkEdit } from './edit-recipe.js';
export { describeChange, describeOverride } from './describe-override.js';
