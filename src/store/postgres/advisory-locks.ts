import { createHash } from 'node:crypto';

// An advisory lock is one 64-bit number per database, shared by every application on it: derived from
// forkpoint's name, the lock's purpose and the schema, so that two stores in one database never share one.
const lockKey = (purpose: string, schema: string): string =>
  createHash('sha256').update(`forkpoint:${purpose}:${schema}`).digest().readBigInt64BE(0).toString();

/** The lock the migrations of `schema` run under, so that two processes starting together migrate once. */
export const migrationLock = (schema: string): string => lockKey('migrations', schema);

/**
 * The lock that keeps a purge's blob deletions apart from writes that store
 * or refer to blobs: every write takes it shared (writers never wait for each
 * other), a purge takes it exclusively while it decides which blobs no row
 * refers to any more, so that no write commits a reference to a blob the
 * purge is deleting. Readers never take it.
 */
export const blobLock = (schema: string): string => lockKey('blobs', schema);
