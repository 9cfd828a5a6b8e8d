// Public blog (/api/blog/posts) and the operators' routes (/api/admin/blog/posts).
import type { App } from '../../../platform/http.ts';
import { NoContent } from '../../../platform/schemas.ts';
import {
  AdminBlogPostListResponse,
  AdminBlogPostSchema,
  AdminListQuery,
  BlogListQuery,
  BlogPostListResponse,
  BlogPostSchema,
  CreatePostBody,
  PostIdParams,
  SlugParams,
  UpdatePostBody,
} from './schemas.ts';
import type { BlogService } from './service.ts';

export async function blogRoutes(app: App, { blog }: { blog: BlogService }): Promise<void> {
  app.addSchema(BlogPostSchema);
  app.addSchema(AdminBlogPostSchema);
  const admin = { access: { permission: 'admin' as const } };

  app.get(
    '/api/blog/posts',
    {
      config: { access: 'public' },
      schema: {
        tags: ['content'],
        summary: 'Published blog posts, newest first',
        description:
          'Only posts whose published_at has passed; drafts and scheduled posts never appear. `content` is ' +
          'null in the list (read a post by slug for it). With `search`, posts are ranked (title over excerpt ' +
          'over content, then newest). `order=asc` reverses the order (oldest first). `start_date`/`end_date` are ' +
          'inclusive UTC days of published_at. `tag` keeps posts carrying that tag (case-insensitive). `meta` ' +
          'echoes every filter.',
        querystring: BlogListQuery,
        response: { 200: BlogPostListResponse },
      },
    },
    async (request) => blog.listPublic(request.query),
  );

  app.get(
    '/api/blog/posts/:slug',
    {
      config: { access: 'public' },
      schema: {
        tags: ['content'],
        summary: 'One published blog post with its Markdown content',
        description: 'Drafts and posts scheduled for later → 404.',
        params: SlugParams,
        response: { 200: { $ref: 'BlogPost#' } },
      },
    },
    async (request) => blog.getPublic(request.params.slug),
  );

  app.get(
    '/api/admin/blog/posts',
    {
      config: admin,
      schema: {
        tags: ['operator'],
        summary: 'Every blog post, drafts and scheduled ones included',
        description: 'Drafts first, then newest first. `content` is null in the list.',
        querystring: AdminListQuery,
        response: { 200: AdminBlogPostListResponse },
      },
    },
    async (request) => blog.listAdmin(request.query),
  );

  app.get(
    '/api/admin/blog/posts/:id',
    {
      config: admin,
      schema: {
        tags: ['operator'],
        summary: 'One blog post, whatever its status',
        params: PostIdParams,
        response: { 200: { $ref: 'AdminBlogPost#' } },
      },
    },
    async (request) => blog.getAdmin(request.params.id),
  );

  app.post(
    '/api/admin/blog/posts',
    {
      config: admin,
      schema: {
        tags: ['operator'],
        summary: 'Write a blog post',
        description:
          'The slug is made from the title when absent (lowercase ASCII and hyphens); a slug another post ' +
          'has → 409 `slug_taken`. The excerpt is derived from the content when absent. A future ' +
          '`published_at` schedules the post; no `published_at` (and no status) makes a draft. `tags` are ' +
          'stored in lower case without duplicates.',
        body: CreatePostBody,
        response: { 201: { $ref: 'AdminBlogPost#' } },
      },
    },
    async (request, reply) => reply.code(201).send(await blog.create(request.body)),
  );

  app.put(
    '/api/admin/blog/posts/:id',
    {
      config: admin,
      schema: {
        tags: ['operator'],
        summary: 'Change a blog post',
        description:
          'Fields sent replace the stored ones, the rest are kept (the slug stays when the title changes). ' +
          '`status: draft` or `published_at: null` unpublishes; a slug another post has → 409.',
        params: PostIdParams,
        body: UpdatePostBody,
        response: { 200: { $ref: 'AdminBlogPost#' } },
      },
    },
    async (request) => blog.update(request.params.id, request.body),
  );

  app.delete(
    '/api/admin/blog/posts/:id',
    {
      config: admin,
      schema: {
        tags: ['operator'],
        summary: 'Delete a blog post',
        params: PostIdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await blog.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
}
