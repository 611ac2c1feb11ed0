import type { Hash } from 'node:crypto';
import { createHash } from 'node:crypto';
import { REQUEST_HASH_LENGTH } from './canonical-form.js';

/**
 * The start of a model request's canonical text, `{"messages":["d1","d2"`,
 * kept as text and as a running sha256 while digests are appended. Closing it
 * with the rest of the request copies the hash state, so hashing a request
 * costs what was appended since, not the whole list again. The text is built
 * by concatenation and only flattened if someone reads it (a divergence).
 */
export class DigestListPrefix {
  private readonly hash: Hash = createHash('sha256');
  private text = '{"messages":[';
  private count = 0;

  constructor() {
    this.hash.update(this.text, 'utf8');
  }

  /** How many digests the prefix holds. */
  get length(): number {
    return this.count;
  }

  /** Appends one message digest (hex, so it needs no escaping). */
  append(digest: string): void {
    const piece = this.count === 0 ? `"${digest}"` : `,"${digest}"`;
    this.count++;
    this.hash.update(piece, 'utf8');
    this.text += piece;
  }

  /** The canonical text of the prefix followed by `rest` (`],` and the request's other fields), and its hash. */
  close(rest: string): { readonly canonical: string; readonly requestHash: string } {
    const requestHash = this.hash.copy().update(rest, 'utf8').digest('hex').slice(0, REQUEST_HASH_LENGTH);
    return { canonical: this.text + rest, requestHash };
  }
}
