// Counts and step lists as the checks' messages say them.

/** The steps of a list, in words: `steps 4 and 8`, `steps 4, 8 and 10`. */
export function stepList(steps: readonly number[]): string {
  if (steps.length === 0) return 'no step';
  if (steps.length === 1) return `step ${steps[0] ?? ''}`;
  return `steps ${steps.slice(0, -1).join(', ')} and ${steps.at(-1) ?? ''}`;
}

/** `once`, `twice`, `3 times`. */
export function times(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`;
}
