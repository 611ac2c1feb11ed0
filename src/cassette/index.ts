export { AliasTable, aliasOpaqueIds, registerOpaqueIds } from './alias-opaque-ids.js';
export { CANONICAL_FORM, REQUEST_HASH_LENGTH } from './canonical-form.js';
export { formatCallPosition, formatCassetteKey, type CassetteKey } from './cassette-key.js';
export { RequestHasher, type HashedModelRequest, type HashedRequest } from './request-hasher.js';
