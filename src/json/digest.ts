import { hash } from 'node:crypto';

/** sha256 of the UTF-8 bytes of `text`, as the first `hexLength` hex characters. */
export function sha256Hex(text: string, hexLength = 64): string {
  // The one-shot hash builds no Hash object: a third of the cost of createHash for a small request.
  const hex = hash('sha256', text, 'hex');
  return hexLength >= 64 ? hex : hex.slice(0, hexLength);
}
