import { stableJson } from '../json/index.js';
import type { RepeatedShapes, StepShape, TrajectoryPart } from './signature.js';

/** The longest block of steps looked for as a repeat: a tool loop rarely takes more than a few steps a turn. */
const LONGEST_BLOCK = 6;

/**
 * A trajectory with its loops collapsed: a block of parts that repeats back
 * to back (twice or more) is kept once, as a `repeat` part, so that a loop
 * taken three times and one taken eight times look the same. A block taken
 * once stays as it is.
 *
 * Blocks are collapsed by length, shortest first across the whole
 * trajectory, then left to right. Doing a length everywhere before the next
 * is what makes a loop of one turn collapse the same however many times it
 * was taken, even where it overlaps a longer repeat: in `E F E F F`, with the
 * last turn looped, `F F` is collapsed before `E F E F` is looked at, as it
 * is in `E F E F F F`. (No collapse can promise the same for every block of
 * several turns: telling `X X` from `X X X` inside any trajectory is the word
 * problem of `x² = x³`, which has no known solution.) A repeated block may
 * hold a repeat of its own, a loop inside a loop.
 */
export function collapseRepeats(steps: readonly StepShape[]): TrajectoryPart[] {
  let parts: readonly TrajectoryPart[] = steps;
  for (let length = 1; length <= LONGEST_BLOCK; length += 1) parts = collapseBlocksOf(parts, length);
  return [...parts];
}

function collapseBlocksOf(parts: readonly TrajectoryPart[], length: number): readonly TrajectoryPart[] {
  if (parts.length < 2 * length) return parts;
  const keys = parts.map((part) => stableJson(part));
  const collapsed: TrajectoryPart[] = [];
  let lastKey: string | undefined;
  let at = 0;
  while (at < parts.length) {
    let times = 1;
    while (sameBlock(keys, at, at + times * length, length)) times += 1;
    if (times === 1) {
      const part = parts[at];
      if (part !== undefined && !(part.kind === 'repeat' && keys[at] === lastKey)) collapsed.push(part);
      lastKey = keys[at];
      at += 1;
      continue;
    }
    const repeat = repeatOf(parts.slice(at, at + length));
    const key = stableJson(repeat);
    // A repeat next to the same repeat is one loop: (X)+ (X)+ is (X)+.
    if (key !== lastKey) collapsed.push(repeat);
    lastKey = key;
    at += length * times;
  }
  return collapsed;
}

// A block that is itself one repeat stays that repeat: ((X)+)+ is (X)+.
function repeatOf(block: TrajectoryPart[]): TrajectoryPart {
  const [only] = block;
  if (block.length === 1 && only?.kind === 'repeat') return only;
  const repeat: RepeatedShapes = { kind: 'repeat', steps: block };
  return repeat;
}

function sameBlock(keys: readonly string[], first: number, second: number, length: number): boolean {
  if (second + length > keys.length) return false;
  for (let offset = 0; offset < length; offset += 1) if (keys[first + offset] !== keys[second + offset]) return false;
  return true;
}
