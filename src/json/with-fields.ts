/**
 * `{ ...base, ...fields }`: the same keys in the same order, with the same
 * values, built so that V8 can share the copies' hidden class. In Node 20's
 * V8 an object literal that starts with a spread and then adds keys the spread
 * did not have gets a new hidden class and descriptor array for every key it
 * adds, on every call, in the old generation, until a full collection: on a
 * replay's path (its stored run, its result, each hashed request) that made a
 * suite of 5,000 cassettes promote 47 MiB instead of 14 and peak 20 MiB
 * higher. Copied onto an empty object, the copies share their classes. For
 * records built on a hot path; anywhere else a spread reads better.
 *
 * @example
 * ```ts
 * const stored = withFields(run, { status: 'completed', stepCount: 12 });
 * ```
 */
export function withFields<Base extends object, Fields extends object>(
  base: Base,
  fields: Fields,
): Omit<Base, keyof Fields> & Fields {
  // Object.assign sets, where a spread defines: the same for records without a `__proto__` key or setters.
  return Object.assign({}, base, fields);
}
