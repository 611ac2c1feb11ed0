export {
  isJsonArray,
  isJsonObject,
  type JsonArray,
  type JsonObject,
  type JsonPrimitive,
  type JsonValue,
} from './json-value.js';
export { MAX_JSON_DEPTH, assertJsonValue, parseJsonInput } from './validate-json.js';
export { canonicalJson, type KnownTexts } from './canonical-json.js';
export { sameJson } from './same-json.js';
export { stableJson } from './stable-json.js';
export { sha256Hex } from './digest.js';
export { applyMergePatch } from './merge-patch.js';
export { deepFreeze } from './deep-freeze.js';
export { asStoredJson } from './as-stored-json.js';
export { withFields } from './with-fields.js';
export {
  JSON_PATCH_OPS,
  applyJsonPatch,
  formatJsonPointer,
  parseJsonPointer,
  type JsonPatchOperation,
} from './json-patch.js';
