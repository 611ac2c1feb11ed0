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
