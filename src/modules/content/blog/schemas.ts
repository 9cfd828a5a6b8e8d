// Blog posts: the public BlogPost of the specification and the operators' AdminBlogPost.
import Type from 'typebox';
import {
  DateOnly,
  DateTime,
  IdParam,
  Nullable,
  Pagination,
  StrictObject,
} from '../../../platform/schemas.ts';
import { SLUG_PATTERN } from './text.ts';

export const POST_STATUSES = ['draft', 'scheduled', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

const publicFields = {
  id: Type.Integer(),
  title: Type.String(),
  slug: Type.String(),
  excerpt: Nullable(
    Type.String({ description: 'As written, or the first ~200 characters of the content without Markdown.' }),
  ),
  cover_image: Nullable(Type.String()),
  author_name: Nullable(Type.String()),
  reading_time_minutes: Type.Integer({
    default: 0,
    description: 'Words of the content (without Markdown) / 200, rounded up, at least 1.',
  }),
  content: Nullable(Type.String({ description: 'Markdown. Only in single-post responses; null in lists.' })),
  tags: Type.Array(Type.String(), {
    description: 'Lower case, in the order given; empty when the post has none (a Crestwatch addition).',
  }),
};

export const BlogPostSchema = Type.Object(
  { ...publicFields, published_at: DateTime() },
  { $id: 'BlogPost', title: 'BlogPost' },
);

export const AdminBlogPostSchema = Type.Object(
  {
    ...publicFields,
    published_at: Nullable(DateTime({ description: 'Null for drafts; in the future for scheduled posts.' })),
    status: Type.Enum([...POST_STATUSES], {
      description: '`scheduled` = published with a `published_at` still in the future.',
    }),
    category: Nullable(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'AdminBlogPost', title: 'AdminBlogPost' },
);

export const BlogPostListResponse = Type.Object(
  {
    posts: Type.Array(Type.Ref('BlogPost')),
    // PaginationMeta plus the one filter it has no field for.
    meta: Type.Intersect([
      Type.Ref('PaginationMeta'),
      Type.Object({
        tag: Nullable(Type.String({ description: 'The `tag` filter applied, as given, or null.' })),
      }),
    ]),
  },
  { title: 'BlogPostListResponse' },
);

export const AdminBlogPostListResponse = Type.Object(
  {
    posts: Type.Array(Type.Ref('AdminBlogPost')),
    meta: Type.Ref('PaginationMeta'),
  },
  { title: 'AdminBlogPostListResponse' },
);

const DateRange = {
  start_date: Type.Optional(DateOnly({ description: 'Published on or after this UTC day.' })),
  end_date: Type.Optional(DateOnly({ description: 'Published on or before this UTC day (inclusive).' })),
};

const Category = Type.String({ minLength: 1, maxLength: 100 });
export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 40;
const Tag = Type.String({ minLength: 1, maxLength: MAX_TAG_LENGTH });

export const BlogListQuery = StrictObject({
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Words that must each appear in the title, excerpt or content (case-insensitive). Results are ranked: ' +
        'a word in the title counts 3, in the excerpt 2, in the content 1; ties newest first.',
    }),
  ),
  category: Type.Optional({ ...Category, description: 'Exact category, case-insensitive.' }),
  tag: Type.Optional({
    ...Tag,
    description: 'Only posts carrying this tag (exact match, case-insensitive); echoed in `meta.tag`.',
  }),
  order: Type.Optional(
    Type.Enum(['desc', 'asc'], {
      default: 'desc',
      description: '`desc` (default): newest (or, with `search`, most relevant) first; `asc` reverses it.',
    }),
  ),
  ...DateRange,
  ...Pagination,
});

export const AdminListQuery = StrictObject({
  status: Type.Optional(Type.Enum([...POST_STATUSES])),
  ...Pagination,
});

const writable = {
  slug: Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: SLUG_PATTERN,
    description: 'Lowercase letters, digits and single hyphens. Generated from the title when absent.',
  }),
  excerpt: Nullable(
    Type.String({ maxLength: 1000, description: 'Null or absent: derived from the content.' }),
  ),
  cover_image: Nullable(Type.String({ maxLength: 2048, format: 'uri', description: 'An http(s) URL.' })),
  author_name: Nullable(Type.String({ minLength: 1, maxLength: 200 })),
  category: Nullable(Category),
  published_at: Nullable(
    DateTime({ description: 'In the future: scheduled (public once due). Null: a draft.' }),
  ),
  status: Type.Enum([...POST_STATUSES], {
    description:
      '`draft` (no published_at), `published` (published_at defaults to now) or `scheduled` (needs a future ' +
      'published_at). When absent: published if published_at is given, else a draft.',
  }),
  tags: Type.Array(Tag, {
    maxItems: MAX_TAGS,
    description:
      `Up to ${MAX_TAGS} tags of 1–${MAX_TAG_LENGTH} characters, stored in lower case (NFKC, whitespace collapsed) with ` +
      'duplicates removed; a blank tag → 400. On update, the list sent replaces the stored one (`[]` clears).',
  }),
};

const Title = Type.String({ minLength: 1, maxLength: 300 });
const Content = Type.String({ minLength: 1, maxLength: 200_000, description: 'Markdown.' });

export const CreatePostBody = StrictObject({
  title: Title,
  content: Content,
  slug: Type.Optional(writable.slug),
  excerpt: Type.Optional(writable.excerpt),
  cover_image: Type.Optional(writable.cover_image),
  author_name: Type.Optional(writable.author_name),
  category: Type.Optional(writable.category),
  published_at: Type.Optional(writable.published_at),
  status: Type.Optional(writable.status),
  tags: Type.Optional(writable.tags),
});

export const UpdatePostBody = StrictObject(
  {
    title: Type.Optional(Title),
    content: Type.Optional(Content),
    slug: Type.Optional(writable.slug),
    excerpt: Type.Optional(writable.excerpt),
    cover_image: Type.Optional(writable.cover_image),
    author_name: Type.Optional(writable.author_name),
    category: Type.Optional(writable.category),
    published_at: Type.Optional(writable.published_at),
    status: Type.Optional(writable.status),
    tags: Type.Optional(writable.tags),
  },
  { description: 'Fields sent replace the stored ones; fields left out are kept.' },
);

export const PostIdParams = IdParam('id', 'The post id.');

export const SlugParams = StrictObject({
  slug: Type.String({ minLength: 1, maxLength: 200, description: 'The post slug.' }),
});
