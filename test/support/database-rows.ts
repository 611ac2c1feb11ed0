import Database from 'better-sqlite3';

/**
 * Every row of every table of a SQLite file, each table's rows as sorted JSON
 * lines: two readings are equal when the database holds the same rows,
 * whatever the file's pages or its WAL say. For "nothing was written".
 */
export function databaseRows(path: string): Record<string, string[]> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((table) => {
        const rows = db
          .prepare(`SELECT * FROM "${table.replaceAll('"', '""')}"`)
          .raw()
          .all() as unknown[][];
        return [table, rows.map((row) => JSON.stringify(row)).sort()];
      }),
    );
  } finally {
    db.close();
  }
}
