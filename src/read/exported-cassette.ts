import { randomBytes } from 'node:crypto';
import type { Cassette, SealHeader, SealingKey } from '../cassette/index.js';
import {
  SEALED_FORMAT,
  openSealedCassette,
  parseCassette,
  plaintextSealOf,
  sealCassette,
  sealHeaderOf,
  sealingKeyFor,
  serializeCassette,
  verifiesPlaintextSeal,
} from '../cassette/index.js';
import { ForkpointError } from '../errors/index.js';
import { isJsonObject, parseJsonInput } from '../json/index.js';
import type { StoreReader } from '../store/index.js';
import type { EngineDeps } from '../driver/index.js';
import { fullCassetteOf } from './full-tier.js';
import { requireRun } from './read-run.js';
import { structuralRecordOf } from './structural-record.js';

/** What `export` writes. */
export interface ExportOptions {
  /** `full` (default) or `structural`. */
  readonly tier?: 'full' | 'structural';
  /** Write a full tier in the clear instead of sealed: a copy no program can recall. */
  readonly plaintext?: boolean;
}

/** An exported cassette file, and what it is. */
export interface ExportedCassette {
  readonly text: string;
  /** The cassette the file holds (in the clear, whatever the file is). */
  readonly cassette: Cassette;
  /** `sealed`: encrypted with the store's key; `plaintext`: a full tier in the clear, signed; `open`: a tier without customer payloads. */
  readonly form: 'sealed' | 'plaintext' | 'open';
}

/** What a plaintext full-tier file says about itself. */
export const PLAINTEXT_NOTICE =
  'a plaintext copy of customer payloads: no program can recall or expire it; forkpoint replays it only against the store that signed it, until it expires';

/**
 * Exports a run's cassette. A full tier is sealed by default: encrypted with
 * the store's key for its expiry day (AES-256-GCM), its run, tier and expiry
 * authenticated with it, so that no edit of them opens, and once `gc` has
 * deleted the key after that day no program can read it again. A plaintext
 * full tier is written only when asked, says what it is, and is signed with
 * the same key. The structural and synthetic tiers hold no customer payloads
 * and are written open.
 */
export async function exportCassette(
  deps: Pick<EngineDeps, 'store' | 'clock'>,
  runId: string,
  options: ExportOptions = {},
): Promise<ExportedCassette> {
  const run = await requireRun(deps.store, runId);
  const tier = options.tier ?? 'full';
  const cassette =
    tier === 'full'
      ? await fullCassetteOf(deps.store, run, deps.clock(), 'read the cassette of')
      : await structuralRecordOf(deps.store, run, deps.clock());
  if ((cassette.tier ?? 'full') !== 'full' || cassette.expiresAt == null)
    return { text: serializeCassette(cassette), cassette, form: 'open' };
  const key = await deps.store.exportKey(sealingKeyFor(cassette.expiresAt).id);
  if (key === undefined)
    throw new ForkpointError(
      'STORE_CORRUPT',
      `${deps.store.location} has no export key for run ${runId}'s expiry day, though its full tier has not expired`,
    );
  const { storeId } = await deps.store.settings();
  if (options.plaintext === true) {
    const signed: Cassette = {
      ...cassette,
      plaintext: PLAINTEXT_NOTICE,
      seal: plaintextSealOf(cassette, storeId, key),
    };
    return { text: serializeCassette(signed), cassette: signed, form: 'plaintext' };
  }
  const header: SealHeader = {
    store: storeId,
    key: key.id,
    runId,
    tier: 'full',
    expiresAt: cassette.expiresAt,
    recordedAt: cassette.source.recordedAt,
  };
  return { text: sealCassette(serializeCassette(cassette), header, key, randomBytes(12)), cassette, form: 'sealed' };
}

/**
 * Reads a cassette file through a store: a sealed one is opened with the
 * store's key, a plaintext full tier is checked against the store's
 * signature, and a full tier that is neither is refused, since nothing could
 * say that its tier or expiry is what was exported. Structural and synthetic
 * files are read as they are. An expired file is refused later, by replay.
 */
export async function readCassette(store: StoreReader, text: string, origin: string): Promise<Cassette> {
  const parsed = parseJsonInput(
    text.startsWith('\uFEFF') ? text.slice(1) : text,
    `cassette ${origin}`,
    'CASSETTE_INVALID',
  );
  if (isJsonObject(parsed) && parsed.format === SEALED_FORMAT) {
    const header = sealHeaderOf(parsed, origin);
    const key = await keyFor(store, header.store, header.key, origin, header.expiresAt);
    const cassette = parseCassette(openSealedCassette(parsed, header, key, origin), origin);
    if (
      cassette.source.runId !== header.runId ||
      (cassette.expiresAt ?? null) !== header.expiresAt ||
      (cassette.tier ?? 'full') !== header.tier
    ) {
      throw new ForkpointError(
        'CASSETTE_INVALID',
        `sealed cassette ${origin} holds another run or expiry than its header says`,
      );
    }
    return cassette;
  }
  const cassette = parseCassette(text, origin);
  if ((cassette.tier ?? 'full') !== 'full') return cassette;
  const { seal } = cassette;
  if (seal === undefined) {
    throw new ForkpointError(
      'CASSETTE_INVALID',
      `cassette ${origin} is a full tier in the clear without its store's seal (written by an older forkpoint, or edited): nothing says its tier or expiry are what was exported`,
      { details: { path: origin, remedy: { kind: 'record-synthetic' } } },
    );
  }
  const key = await keyFor(store, seal.store, seal.key, origin, cassette.expiresAt ?? null);
  if (!verifiesPlaintextSeal(cassette, seal, key)) {
    throw new ForkpointError(
      'CASSETTE_INVALID',
      `cassette ${origin} does not match its seal: its run, tier or expiry was edited after it was exported`,
    );
  }
  return cassette;
}

async function keyFor(
  store: StoreReader,
  storeId: string,
  keyId: string,
  origin: string,
  expiresAt: string | null,
): Promise<SealingKey> {
  const ours = (await store.settings()).storeId;
  if (storeId !== ours) {
    throw new ForkpointError(
      'CASSETTE_SEALED',
      `cassette ${origin} was sealed by store ${storeId}, and ${store.location} is store ${ours}`,
      { details: { path: origin, remedy: { kind: 'open-sealing-store' } } },
    );
  }
  const key = await store.exportKey(keyId);
  if (key === undefined) {
    throw new ForkpointError(
      'CASSETTE_EXPIRED',
      `cassette ${origin} expired at ${expiresAt ?? '?'}, and the key that sealed it (${keyId}) was deleted with its day: it can no longer be read`,
    );
  }
  return key;
}
