// One test process of `scripts/run-tests.mjs`: it asks its parent for a file, runs it as a suite named after the
// file (a file's top-level `before`/`after` hooks are that suite's), and asks for the next one until none is
// left. Files share the process: the modules they load (the app, TypeBox, Kysely: about 1,500 ES modules) are
// loaded once per process instead of once per file, which was half of the suite's time.
import path from 'node:path';
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';

/** A whole file may take this long (a safety net for a hung file, not a speed goal). */
const FILE_TIMEOUT_MS = 600_000;

function nextFile() {
  return new Promise((resolve) => {
    process.once('message', (message) => resolve(message.file ?? null));
    process.send({ ready: true });
  });
}

for (let file = await nextFile(); file; file = await nextFile()) {
  const url = pathToFileURL(path.resolve(file)).href;
  await describe(file, { timeout: FILE_TIMEOUT_MS }, async () => {
    await import(url);
  });
}
// Without the channel to the parent the process ends once the last file's servers and timers are gone.
process.disconnect();
