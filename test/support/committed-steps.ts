import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';

/**
 * Waits until another process has committed at least `atLeast` steps of a
 * run, reading the database file directly (it may not exist yet), for at
 * most five seconds; returns how many it saw.
 */
export async function committedSteps(db: string, runId: string, atLeast: number): Promise<number> {
  let committed = 0;
  for (let attempt = 0; attempt < 200 && committed < atLeast; attempt++) {
    await sleep(25);
    try {
      const reader = new Database(db, { readonly: true, fileMustExist: true });
      committed =
        (reader
          .prepare('SELECT COALESCE(MAX(step), 0) FROM steps JOIN runs USING (run_key) WHERE run_id = ?')
          .pluck()
          .get(runId) as number | undefined) ?? 0;
      reader.close();
    } catch {
      // Not created yet, or caught between two commits.
    }
  }
  return committed;
}
