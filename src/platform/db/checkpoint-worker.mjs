// Worker-thread entry of the WAL checkpointer (checkpointer.ts): its own connection to the SQLite file copies
// committed pages from the write-ahead log into the database every `intervalMs`, PASSIVE (it never waits for,
// nor holds up, the connections that read and write), and reports what each checkpoint did if asked to.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, intervalMs, report } = workerData;
const db = new SQLite(file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');

function checkpoint() {
  const [result] = db.pragma('wal_checkpoint(PASSIVE)');
  // busy = 1 only when another connection was checkpointing at the same moment: the next tick catches up.
  // Reports wake the API thread, so they are sent only to a listener.
  if (report) parentPort.postMessage({ type: 'checkpoint', frames: result.log, copied: result.checkpointed });
}

const timer = setInterval(checkpoint, intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
