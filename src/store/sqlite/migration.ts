/** One numbered schema change. Applied in order, once, and recorded in `schema_migrations`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
