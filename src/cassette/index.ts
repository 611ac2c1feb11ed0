export { AliasTable, aliasOpaqueIds, registerOpaqueIds } from './alias-opaque-ids.js';
export { CANONICAL_FORM, REQUEST_HASH_LENGTH } from './canonical-form.js';
export { CASSETTE_FORMAT, type Cassette, type CassetteEntry, type CassetteSource } from './cassette.js';
export { parseCassette, serializeCassette } from './cassette-file.js';
export { cassetteTierOf, findCassetteFiles, readCassetteFile, readCassetteText } from './cassette-files.js';
export { CassetteIndex, type Miss } from './cassette-index.js';
export { formatCassetteKey, type CassetteKey } from './cassette-key.js';
export { RequestHasher, type HashedModelRequest, type HashedRequest } from './request-hasher.js';
export { HeadMemo, type RequestHead } from './head-memo.js';
export {
  SEALED_FORMAT,
  openSealedCassette,
  plaintextSealOf,
  sealCassette,
  sealHeaderOf,
  sealingKeyFor,
  verifiesPlaintextSeal,
  type SealHeader,
  type SealingKey,
} from './sealed-cassette.js';
export { digestArray, type MessageDigests } from './message-digests.js';
export type { PlaintextSeal } from './cassette.js';
