/**
 * How durable a commit is. `NORMAL` survives a killed process; `FULL` also survives power loss, at about 7x
 * the commit cost. A file of its own, without better-sqlite3's types, because the store's public options
 * name it.
 */
export type Synchronous = 'NORMAL' | 'FULL';
