/** The position and identity of one recorded request: `kind:index:hash`. */
export interface CassetteKey {
  /** `model` or a tool name. */
  readonly kind: string;
  /** That kind's call number within the run, from 0. */
  readonly index: number;
  /** The request hash (16 hex). */
  readonly requestHash: string;
}

/** Formats a key as `kind:index:hash`, for example `ocr_document:0:3f9a1c0d2b7e4a55`. */
export function formatCassetteKey(key: CassetteKey): string {
  return `${key.kind}:${key.index}:${key.requestHash}`;
}
