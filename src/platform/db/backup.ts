// Online backup of the embedded SQLite database: SQLite's backup API copies a consistent snapshot page by page
// while the service keeps reading and writing (a plain file copy can catch a half-written state in WAL mode).
import fs from 'node:fs';
import SQLite from 'better-sqlite3';

interface BackupResult {
  bytes: number;
  pages: number;
  /** `PRAGMA integrity_check` of the copy: "ok" when sound. */
  integrity: string;
}

/**
 * Copies the SQLite database at `source` to `destination` (which must not exist; created readable by its owner
 * only), then checks the copy. `onProgress(copiedPages, totalPages)` is called as it goes.
 */
export async function backupSqlite(
  source: string,
  destination: string,
  onProgress: (copied: number, total: number) => void = () => undefined,
): Promise<BackupResult> {
  if (fs.existsSync(destination)) throw new Error(`${destination} already exists; choose a new file name.`);
  // The copy is written in place: create it empty and private first, so it is never readable by others.
  fs.closeSync(fs.openSync(destination, 'wx', 0o600));
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  let pages = 0;
  try {
    await db.backup(destination, {
      progress({ totalPages, remainingPages }) {
        pages = totalPages;
        onProgress(totalPages - remainingPages, totalPages);
        return 256;
      },
    });
  } catch (error) {
    fs.rmSync(destination, { force: true });
    throw error;
  } finally {
    db.close();
  }
  fs.chmodSync(destination, 0o600);
  const copy = new SQLite(destination, { readonly: true });
  try {
    const integrity = String(copy.pragma('integrity_check', { simple: true }));
    if (pages === 0) pages = Number(copy.pragma('page_count', { simple: true }));
    return { bytes: fs.statSync(destination).size, pages, integrity };
  } finally {
    copy.close();
  }
}
