import { createHash } from 'node:crypto';

/** sha256 of the UTF-8 bytes of `text`, as the first `hexLength` hex characters. */
export function sha256Hex(text: string, hexLength = 64): string {
  const hex = createHash('sha256').update(text, 'utf8').digest('hex');
  return hexLength >= 64 ? hex : hex.slice(0, hexLength);
}
