/**
 * A small, fast, seedable generator (splitmix32 over a mixed seed). Each
 * (seed, stream) pair gives its own repeatable sequence of numbers in [0, 1).
 */
export function seededRandom(seed: number, stream: number): () => number {
  let state = (Math.imul(seed >>> 0, 0x9e3779b9) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    z = (z ^ (z >>> 15)) >>> 0;
    return z / 0x100000000;
  };
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** An opaque token of `length` characters, as providers mint for ids and signatures. */
export function opaqueToken(random: () => number, length: number): string {
  let token = '';
  for (let i = 0; i < length; i++) token += BASE62.charAt(Math.floor(random() * BASE62.length));
  return token;
}
