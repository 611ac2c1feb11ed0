// Times the write transactions of one SQLite connection in this process, for bench-scale's gc figure.
// A store's calls are not its transactions: a commit that fills the write-ahead log runs a checkpoint
// after it has let go of the write lock, and compact is a series of statements, each its own
// transaction. So the connection opened while this is installed makes no automatic checkpoint (the
// recorder's connection still does, and copies gc's pages with its own), and every statement or pragma
// it runs outside a transaction of the store is timed as the transaction it is. A passive checkpoint
// holds no lock a writer waits for; the caller leaves those out.
import Database from 'better-sqlite3';

const statementProto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1'));

/**
 * Patches better-sqlite3 until `uninstall`: connections opened meanwhile skip automatic checkpoints,
 * and `timeStatements(work)` records how long each statement and pragma `work` runs takes.
 */
export function installWriteTimer() {
  const originals = { pragma: Database.prototype.pragma, run: statementProto.run, all: statementProto.all, get: statementProto.get };
  let recording = null;
  // better-sqlite3 runs a pragma through a statement of its own: counted once, as the pragma.
  let inPragma = false;
  const time = (original, sourceOf) =>
    function (...args) {
      if (recording === null || inPragma) return original.apply(this, args);
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        recording.push({ source: sourceOf(this, args), ms: Number(process.hrtime.bigint() - started) / 1e6 });
      }
    };
  Database.prototype.pragma = function (source, options) {
    const text = /^\s*wal_autocheckpoint\s*=/.test(source) ? 'wal_autocheckpoint = 0' : source;
    if (recording === null) return originals.pragma.call(this, text, options);
    const started = process.hrtime.bigint();
    inPragma = true;
    try {
      return originals.pragma.call(this, text, options);
    } finally {
      inPragma = false;
      recording.push({ source: `PRAGMA ${text}`, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    }
  };
  const sourceOf = (statement) => statement.source;
  statementProto.run = time(originals.run, sourceOf);
  statementProto.all = time(originals.all, sourceOf);
  statementProto.get = time(originals.get, sourceOf);
  return {
    /** Runs `work`, returning its result and every statement it ran, `{ source, ms }`. */
    timeStatements(work) {
      recording = [];
      try {
        return { result: work(), durations: recording };
      } finally {
        recording = null;
      }
    },
    uninstall: () => {
      Database.prototype.pragma = originals.pragma;
      Object.assign(statementProto, { run: originals.run, all: originals.all, get: originals.get });
    },
  };
}
