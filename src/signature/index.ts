export {
  SIGNATURE_VERSION,
  type FailureSignature,
  type ModelShape,
  type RepeatedShapes,
  type SignatureEnding,
  type StepShape,
  type ToolShape,
  type TrajectoryPart,
  isFailureSignature,
} from './signature.js';
export { SignatureTally, modelShapeOf, signatureOf, toolShapeOf, type SignedEnding } from './signature-tally.js';
export { collapseRepeats } from './collapse-repeats.js';
export { typeSkeleton } from './type-skeleton.js';
export { conversationShapes } from './conversation-shapes.js';
