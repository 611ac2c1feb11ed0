/**
 * The item at `index` of a list a suite made or was answered, which it expects to be that long: a
 * shorter one fails the test here, saying so, instead of as a TypeError further on.
 */
export function itemAt<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`expected an item at ${index} of a list of ${list.length}`);
  return item;
}
