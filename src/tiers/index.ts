export { shapeJson, shapeNumber, shapeString } from './shape-json.js';
export { shapeMessage, shapeModelResponse, shapePart, shapeToolResponse } from './shape-protocol.js';
export { structuralCassetteOf } from './structural-cassette.js';
export { STRUCTURAL_FORM, StructuralHasher, type StructurallyHashed } from './structural-hasher.js';
export {
  FULL_RETENTION_HOURS,
  STRUCTURAL_RETENTION_DAYS,
  earlierExpiry,
  fullExpiryOf,
  hasExpired,
  structuralExpiryOf,
} from './tier.js';
