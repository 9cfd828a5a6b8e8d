// The content module's migrations, by name (the runner orders every owner's together: src/platform/db/migrator.ts).
import type { MigrationSet } from '../../../platform/db/index.ts';
import { statusChecks } from './0001.3_status_checks.ts';
import { content } from './0009_content.ts';
import { blogTags } from './0012_blog_tags.ts';

export const contentMigrations: MigrationSet = {
  owner: 'content',
  migrations: {
    '0001.3_status_checks': statusChecks,
    '0009_content': content,
    '0012_blog_tags': blogTags,
  },
};
