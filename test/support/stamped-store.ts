import type { Store } from '../../src/store/index.js';

/**
 * The store as it would read if every checkpoint had been written by machine
 * version `to` instead of `from`: what a database written by another
 * forkpoint looks like to this one, without writing one.
 */
export function stampedAs(store: Store, from: number, to: number): Store {
  const stamp = (text: string) => text.replaceAll(`"machineVersion":${from}`, `"machineVersion":${to}`);
  const readRestore: Store['readRestore'] = async (request) => {
    const rows = await store.readRestore(request);
    return {
      ...rows,
      chain: rows.chain.map((row) => ({ ...row, checkpoint: stamp(row.checkpoint) })),
      blobs: new Map([...rows.blobs].map(([digest, body]) => [digest, stamp(body)])),
    };
  };
  return { ...store, readRestore, read: (work) => store.read((reader) => work({ ...reader, readRestore })) };
}
