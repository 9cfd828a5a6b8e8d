// `crestwatch blog import DIR`: every *.md file of DIR (not recursive) becomes a post, created or, when a
// post has its slug already, updated. Files are validated like POST /api/admin/blog/posts bodies.
import fs from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../../platform/errors.ts';
import { compileBodyValidator, fieldErrors } from '../../../platform/validation.ts';
import { FrontMatterError, parsePostFile } from './frontmatter.ts';
import { CreatePostBody } from './schemas.ts';
import type { BlogService } from './service.ts';
import { slugify } from './text.ts';

const MAX_FILE_BYTES = 1024 * 1024;
const validate = compileBodyValidator(CreatePostBody);

interface ImportSummary {
  files: number;
  created: number;
  updated: number;
  failed: { file: string; reason: string }[];
}

export function markdownFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.md'))
    .map((entry) => entry.name)
    .sort();
}

async function importOne(blog: BlogService, file: string): Promise<'created' | 'updated'> {
  let text: string;
  try {
    if (fs.statSync(file).size > MAX_FILE_BYTES) throw new FrontMatterError('the file is larger than 1 MiB');
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof FrontMatterError) throw error;
    throw new FrontMatterError(`cannot read the file (${(error as Error).message})`);
  }
  const post = parsePostFile(text);
  if (!validate(post)) {
    const first = fieldErrors(validate.errors ?? [], '')[0];
    throw new FrontMatterError(
      `${first?.path.replace(/^\./, '') || 'post'} ${first?.message ?? 'is invalid'}`,
    );
  }
  const existing = await blog.bySlug(post.slug ?? slugify(post.title));
  if (existing) {
    await blog.update(existing.id, {
      ...post,
      excerpt: post.excerpt ?? null,
      cover_image: post.cover_image ?? null,
      author_name: post.author_name ?? null,
      category: post.category ?? null,
      tags: post.tags ?? [],
    });
    return 'updated';
  }
  await blog.create(post);
  return 'created';
}

/** Imports DIR's Markdown files one by one; a bad file is reported and skipped, the others go on. */
export async function importPosts(
  blog: BlogService,
  dir: string,
  onProgress: (done: number, summary: ImportSummary) => void = () => {},
): Promise<ImportSummary> {
  const files = markdownFiles(dir);
  const summary: ImportSummary = { files: files.length, created: 0, updated: 0, failed: [] };
  for (const [i, name] of files.entries()) {
    try {
      summary[await importOne(blog, path.join(dir, name))]++;
    } catch (error) {
      if (!(error instanceof FrontMatterError || error instanceof ApiError)) throw error;
      const reason = error instanceof ApiError ? error.detail : (error as Error).message;
      summary.failed.push({ file: name, reason });
    }
    onProgress(i + 1, summary);
  }
  return summary;
}
