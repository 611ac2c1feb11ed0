/**
 * What one model's tokens cost, in US dollars per million tokens, by the
 * kinds {@link Usage} counts (`src/conversation`): input billed at the input
 * rate, output (reasoning included, which providers bill as output), input
 * read from the provider's prompt cache, and input written to it. A rate the
 * table leaves out is unknown: a step that has tokens of that kind is priced
 * unknown, never as free.
 */
export type ModelPrice = {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
};

/** Where a price table's figures come from, as its file or declaration says. */
export interface PriceSource {
  /** The file it was read from, or the name of the declaration (`forkpoint's list prices`). */
  readonly origin: string;
  /** The day its figures were recorded (`YYYY-MM-DD`), when it says. */
  readonly asOf: string | null;
  /** Where its figures were taken from: the providers' pricing pages. */
  readonly source: readonly string[];
}

/**
 * Prices by model id, and where they come from. Ids match exactly; an id with
 * a dated snapshot suffix (`-20250929`, `-2024-08-06`) that the table does not
 * name is priced as the id without it, since providers list a snapshot under
 * its alias: a snapshot whose price differs is named in the table itself
 * (`gpt-4o-2024-05-13`), and an exact entry always wins.
 */
export interface PriceTable {
  /** The tables merged into this one, lowest first: a later one's price for a model replaces an earlier one's. */
  readonly sources: readonly PriceSource[];
  readonly models: ReadonlyMap<string, ModelPrice>;
}

// Anthropic dates its snapshots `-YYYYMMDD`, OpenAI `-YYYY-MM-DD`.
const SNAPSHOT = /^(.+?)-(\d{8}|\d{4}-\d{2}-\d{2})$/;

/** The price of `model` in `table`: its own entry, else its alias's for a dated snapshot; undefined when neither. */
export function priceOf(table: PriceTable, model: string): ModelPrice | undefined {
  const exact = table.models.get(model);
  if (exact !== undefined) return exact;
  const snapshot = SNAPSHOT.exec(model);
  return snapshot === null ? undefined : table.models.get(snapshot[1] ?? '');
}

/** A table that prices nothing: every model's cost is unknown. */
export const NO_PRICES: PriceTable = { sources: [], models: new Map() };

/**
 * The tables merged, lowest first: a model a later table names takes its
 * price from it (a user's table over a scenario's over forkpoint's own).
 */
export function mergePriceTables(...tables: readonly (PriceTable | undefined)[]): PriceTable {
  const present = tables.filter((table): table is PriceTable => table !== undefined);
  if (present.length === 1 && present[0] !== undefined) return present[0];
  const models = new Map<string, ModelPrice>();
  for (const table of present) for (const [model, price] of table.models) models.set(model, price);
  return { sources: present.flatMap((table) => table.sources), models };
}
