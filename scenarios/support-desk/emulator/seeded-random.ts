/**
 * A small seeded generator (mulberry32) for one call: the emulated model's
 * wording depends on the world's seed and the call's position, so a pinned seed
 * repeats a run exactly.
 */
export function seededRandom(seed: number, position: number): () => number {
  let state = (seed ^ Math.imul(position + 1, 0x9e3779b1)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** An opaque token as a provider mints one: new on every call (ids, signatures), from the run's draws. */
export function opaqueToken(random: () => number, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let token = '';
  for (let i = 0; i < length; i++) token += alphabet.charAt(Math.floor(random() * alphabet.length));
  return token;
}
