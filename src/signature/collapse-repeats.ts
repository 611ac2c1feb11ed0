import { stableJson } from '../json/index.js';
import type { StepShape, TrajectoryPart } from './signature.js';

/** The longest block of steps looked for as a repeat: a tool loop rarely takes more than a few steps a turn. */
const LONGEST_BLOCK = 6;

/**
 * A trajectory with its loops collapsed: a block of steps that repeats back
 * to back (twice or more) is kept once, as a `repeat` part, so that a loop
 * taken three times and one taken eight times look the same. The shortest
 * repeating block wins, from left to right; a block taken once stays as it is.
 */
export function collapseRepeats(steps: readonly StepShape[]): TrajectoryPart[] {
  const keys = steps.map((step) => stableJson(step));
  const parts: TrajectoryPart[] = [];
  let at = 0;
  while (at < steps.length) {
    const block = repeatingBlockAt(keys, at);
    if (block === undefined) {
      const step = steps[at];
      if (step !== undefined) parts.push(step);
      at += 1;
      continue;
    }
    parts.push({ kind: 'repeat', steps: steps.slice(at, at + block.length) });
    at += block.length * block.times;
  }
  return parts;
}

function repeatingBlockAt(keys: readonly string[], at: number): { length: number; times: number } | undefined {
  const longest = Math.min(LONGEST_BLOCK, Math.floor((keys.length - at) / 2));
  for (let length = 1; length <= longest; length += 1) {
    let times = 1;
    while (sameBlock(keys, at, at + times * length, length)) times += 1;
    if (times > 1) return { length, times };
  }
  return undefined;
}

function sameBlock(keys: readonly string[], first: number, second: number, length: number): boolean {
  if (second + length > keys.length) return false;
  for (let offset = 0; offset < length; offset += 1) if (keys[first + offset] !== keys[second + offset]) return false;
  return true;
}
