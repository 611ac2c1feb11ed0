/** A value that changes over time: each entry holds from its date (inclusive) until the next. */
export type Timeline<T> = readonly { readonly from: string; readonly value: T }[];

/** A value that never changed. */
export const always = <T>(value: T): Timeline<T> => [{ from: '0000-01-01', value }];

/** The value of `timeline` on day `at` (`YYYY-MM-DD`; such strings sort as dates). */
export function valueAt<T>(timeline: Timeline<T>, at: string): T {
  let current: T | undefined;
  for (const entry of timeline) {
    if (entry.from <= at) current = entry.value;
  }
  if (current === undefined) throw new Error(`no value before ${at}`);
  return current;
}

/** The day after `day` (`YYYY-MM-DD`, UTC). */
export function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** `value` on day `day` only, `otherwise` before and after it. */
export const onlyOn = <T>(day: string, value: T, otherwise: T): Timeline<T> => [
  { from: '0000-01-01', value: otherwise },
  { from: day, value },
  { from: dayAfter(day), value: otherwise },
];
