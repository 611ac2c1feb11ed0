import { join } from 'node:path';
import { forkpoint } from './forkpoint-process.js';

/** The demo's incident: CLM-91077 recorded with the baseline build, failing at step 9. */
export const INCIDENT = '9b40c1d5';

/** A database the demo wrote, and the id of its fork of the incident at step 4 (random on every demo). */
export interface DemoStore {
  readonly db: string;
  readonly forkId: string;
}

interface TreeNode {
  readonly run: { readonly runId: string; readonly mode: string };
  readonly children: readonly TreeNode[];
}

/** Runs `forkpoint demo --db FOLDER/demo.db` and finds the fork among the incident's children (`tree --json`). */
export async function makeDemoStore(folder: string): Promise<DemoStore> {
  const db = join(folder, 'demo.db');
  const demo = await forkpoint(['demo', '--db', db]);
  if (demo.exit !== 0) throw new Error(`forkpoint demo exited ${demo.exit}: ${demo.stderr}`);
  const tree = await forkpoint(['tree', INCIDENT, '--json', '--db', db]);
  const root = (JSON.parse(tree.stdout) as { tree: TreeNode }).tree;
  const forks = root.children.filter((child) => child.run.mode === 'fork');
  if (forks.length !== 1) throw new Error(`the demo made ${forks.length} forks of ${INCIDENT}, not one`);
  return { db, forkId: forks[0]!.run.runId };
}
