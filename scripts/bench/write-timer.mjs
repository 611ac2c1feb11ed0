// Times how long one process holds SQLite's write lock, and waits for it, for bench-scale's gc figures.
// A store's calls are not its transactions: a call that begins with BEGIN IMMEDIATE may first wait for
// another process's lock, and a commit that fills the write-ahead log runs a checkpoint after it has
// let go of the lock. So this patches better-sqlite3 to time, from the statements themselves, each
// hold (from the end of BEGIN IMMEDIATE to the end of COMMIT, or one write statement outside a
// transaction) and each wait (BEGIN IMMEDIATE itself). Connections opened meanwhile can be told to make
// no automatic checkpoint, so that a timed COMMIT is the commit alone; another connection's automatic
// checkpoints then copy their pages. Passive checkpoints, which hold no lock a writer waits for, and
// plain reads are not holds.
import Database from 'better-sqlite3';

const statementProto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1'));
const now = () => Number(process.hrtime.bigint()) / 1e6;
const isRead = (source) =>
  /^\s*(SELECT|WITH)\b/i.test(source) || /^PRAGMA (freelist_count|wal_checkpoint\(PASSIVE\))/.test(source);

/**
 * Patches better-sqlite3 until `uninstall`. `holds` and `waits` collect milliseconds while `recording`
 * is on; with `noAutocheckpoint`, connections opened meanwhile make no automatic checkpoint.
 */
export function installWriteTimer({ noAutocheckpoint = false } = {}) {
  const originals = {
    pragma: Database.prototype.pragma,
    run: statementProto.run,
    all: statementProto.all,
    get: statementProto.get,
  };
  const timer = { recording: false, holds: [], waits: [] };
  let heldSince = null;
  // better-sqlite3 runs a pragma through a statement of its own: counted once, as the pragma.
  let inPragma = false;
  const observe = (source, started, ended) => {
    if (!timer.recording) return;
    if (/^\s*BEGIN/i.test(source)) {
      timer.waits.push(ended - started);
      heldSince = ended;
    } else if (/^\s*(COMMIT|ROLLBACK)/i.test(source)) {
      if (heldSince !== null) timer.holds.push(ended - heldSince);
      heldSince = null;
    } else if (heldSince === null && !isRead(source)) {
      timer.holds.push(ended - started);
    }
  };
  const time = (original) =>
    function (...args) {
      if (inPragma) return original.apply(this, args);
      const started = now();
      try {
        return original.apply(this, args);
      } finally {
        observe(this.source, started, now());
      }
    };
  Database.prototype.pragma = function (source, options) {
    const text = noAutocheckpoint && /^\s*wal_autocheckpoint\s*=/.test(source) ? 'wal_autocheckpoint = 0' : source;
    const started = now();
    inPragma = true;
    try {
      return originals.pragma.call(this, text, options);
    } finally {
      inPragma = false;
      observe(`PRAGMA ${text}`, started, now());
    }
  };
  statementProto.run = time(originals.run);
  statementProto.all = time(originals.all);
  statementProto.get = time(originals.get);
  timer.uninstall = () => {
    Database.prototype.pragma = originals.pragma;
    Object.assign(statementProto, { run: originals.run, all: originals.all, get: originals.get });
  };
  return timer;
}
