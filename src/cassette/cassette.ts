import type { Message } from '../conversation/index.js';
import type { JsonObject, JsonValue } from '../json/index.js';
import type { Tier } from '../vocabulary/index.js';

// Types, not interfaces: a type is assignable to `JsonValue`, so a cassette is written as the plain JSON it is.

/** The version of the cassette file format. */
export const CASSETTE_FORMAT = 'forkpoint-cassette/2';

/** One recorded observation, at its position, with the request it answered. */
export type CassetteEntry = {
  /** The step it was in the recording. */
  readonly step: number;
  readonly kind: string;
  readonly index: number;
  /** The request hash in the cassette's canonical form. */
  readonly requestHash: string;
  /** The canonical request: for a model call, messages stand as their digests. */
  readonly request: JsonValue;
  /** A model response, or `{ output, isError }` for a tool. */
  readonly response: JsonValue;
};

/** What the recording was: its run, input and world, and how it ended. */
export type CassetteSource = {
  readonly runId: string;
  readonly scenario: string | null;
  readonly input: JsonObject;
  /** The date the recording's world said it answered as of. */
  readonly worldAt: string | null;
  /** The seed the recording's world said its model sampled with. */
  readonly seed: number | null;
  readonly recordedAt: string;
  readonly status: string;
  readonly outcome: JsonObject | null;
  readonly error: JsonObject | null;
};

/**
 * Every observation a run received, keyed by position and request hash, with
 * the messages its model requests referred to. The same shape whether it was
 * read from the database or from a file.
 */
export type Cassette = {
  readonly format: typeof CASSETTE_FORMAT;
  readonly canonicalForm: string;
  /**
   * What the cassette holds: `full`, `structural` or `synthetic` (see `Tier`).
   * Files written before tiers existed have none and are read as `full`.
   */
  readonly tier?: Tier;
  /** When the cassette may no longer be used (ISO timestamp); null or absent: never. */
  readonly expiresAt?: string | null;
  /** Set on a full-tier file exported in the clear (`export --plaintext`): what such a copy is, in words. */
  readonly plaintext?: string;
  /**
   * A plaintext full-tier file's seal: its store's signature of its run, tier
   * and expiry, so a store holding the key refuses a copy whose tier or expiry
   * was edited.
   */
  readonly seal?: PlaintextSeal;
  readonly agent: { readonly name: string; readonly build: string; readonly codeHash: string };
  /**
   * `wrapped` on the cassette of a loop forkpoint did not drive (a session's):
   * its answers are the SDK's own, which only a session over that loop can
   * replay. Absent on a driven run's.
   */
  readonly loop?: 'wrapped';
  readonly source: CassetteSource;
  /** The recording's conversation, in order, each message with its digest. */
  readonly messages: readonly { readonly digest: string; readonly message: Message }[];
  /** One entry per step, in step order. */
  readonly entries: readonly CassetteEntry[];
};

/** The seal a plaintext full-tier export carries: which key signed which facts, and the signature. */
export type PlaintextSeal = {
  readonly store: string;
  readonly key: string;
  /** HMAC-SHA256 (base64) of the cassette's run, tier, expiry and recording time. */
  readonly mac: string;
};
