// `crestwatch blog import DIR`: Markdown files (front matter + body) as blog posts.

import fs from 'node:fs';
import type { Database } from '../../database.ts';
import { migrateAppToLatest } from '../../migrations.ts';
import { BlogService, BlogStore, importPosts, markdownFiles } from '../../modules/content/index.ts';
import { systemClock } from '../../platform/clock.ts';
import { openDatabase } from '../../platform/db/index.ts';
import { type CommandInput, UsageError, unknownCommand } from '../command.ts';
import { Progress } from '../progress.ts';

export const usage = [
  '  blog import DIR                           load DIR/*.md (front matter + Markdown) as blog posts; a post',
  '                                            whose slug exists is updated (safe to re-run)',
].join('\n');

export async function run({ config, positionals }: CommandInput): Promise<void> {
  if (positionals[1] !== 'import') throw unknownCommand(positionals);
  const dir = positionals[2];
  if (!dir || positionals.length > 3) throw new UsageError('blog import needs one DIR');
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`${dir} is not a directory`);
  }
  const handle = openDatabase<Database>(config.database);
  try {
    await migrateAppToLatest(handle);
    const blog = new BlogService(new BlogStore(handle.db), systemClock);
    const progress = new Progress({
      label: 'import',
      total: markdownFiles(dir).length,
      unit: 'files',
      everyItems: 100,
    });
    const summary = await importPosts(blog, dir, (done) => progress.update(done, done));
    progress.finish();
    for (const failure of summary.failed) console.log(`  ${failure.file}: ${failure.reason}`);
    console.log(
      `${summary.files} files: created ${summary.created}, updated ${summary.updated}, ` +
        `failed ${summary.failed.length}`,
    );
    if (summary.failed.length > 0) process.exitCode = 1;
  } finally {
    await handle.close();
  }
}
