/**
 * The trend taxonomy (data/categories/taxonomy.json): top-level categories, each with children, named as slash
 * paths (`Technology/AI`, `Sports/Football`) with stable slugs (`technology-ai`, `sports-football`), and the
 * lookups by name or slug.
 */
import Type from 'typebox';
import { DataFileError, loadJson } from '../../platform/data-files.ts';

interface Category {
  /** Slash path: `Technology` or `Technology/AI`. */
  name: string;
  /** Stable URL-safe id derived from the path: `technology-ai`. */
  slug: string;
  description: string;
  /** The parent's name; null for a top-level category. */
  parent: string | null;
}

export const FALLBACK_CATEGORY = 'General/Other';

/** A category's own name: no slash (paths join names with one) and no space at either end. */
const Name = Type.String({ pattern: '^[^/\\s](?:[^/]*[^/\\s])?$' });
const Description = Type.String({ minLength: 1 });
const TaxonomySchema = Type.Array(
  Type.Object(
    {
      name: Name,
      description: Description,
      children: Type.Array(
        Type.Object({ name: Name, description: Description }, { additionalProperties: false }),
        {
          minItems: 1,
        },
      ),
    },
    { additionalProperties: false },
  ),
  { minItems: 1 },
);

function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The categories of a taxonomy file laid out as data/categories/taxonomy.json is, each parent followed by its
 * children; a name or slug given twice, or no `General/Other`, is a DataFileError naming the file.
 */
export function readTaxonomy(file: URL): Category[] {
  const out: Category[] = [];
  for (const top of loadJson(file, TaxonomySchema)) {
    out.push({ name: top.name, slug: slugify(top.name), description: top.description, parent: null });
    for (const child of top.children) {
      const name = `${top.name}/${child.name}`;
      out.push({ name, slug: slugify(name), description: child.description, parent: top.name });
    }
  }
  const names = new Set<string>();
  const slugs = new Set<string>();
  for (const { name, slug } of out) {
    if (names.has(name.toLowerCase()))
      throw new DataFileError(file, '', `category "${name}" is listed twice`);
    if (slug === '' || slugs.has(slug))
      throw new DataFileError(file, '', `category "${name}" has slug "${slug}"`);
    names.add(name.toLowerCase());
    slugs.add(slug);
  }
  if (!names.has(FALLBACK_CATEGORY.toLowerCase()))
    throw new DataFileError(file, '', `no ${FALLBACK_CATEGORY} (the category of a trend nothing matches)`);
  return out;
}

/** Every category, each parent followed by its children, in a fixed order. */
export const CATEGORIES: readonly Readonly<Category>[] = Object.freeze(
  readTaxonomy(new URL('./data/categories/taxonomy.json', import.meta.url)).map((c) => Object.freeze(c)),
);

const INDEX_BY_NAME = new Map<string, number>();
const INDEX_BY_SLUG = new Map<string, number>();
CATEGORIES.forEach((c, i) => {
  INDEX_BY_NAME.set(c.name.toLowerCase(), i);
  INDEX_BY_SLUG.set(c.slug, i);
});

/** The index of a category by its exact path, case-insensitively (as the data files name categories). */
export function indexOfPath(path: string): number | undefined {
  return INDEX_BY_NAME.get(path.toLowerCase());
}

/** The index of the category a value names by its path or slug (spacing forgiven); else undefined. */
export function indexOfNameOrSlug(value: string): number | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.trim().toLowerCase();
  if (lower === '') return undefined;
  // Spacing is forgiven (`technology / ai`, `crisis &safety`); spelling is not.
  const name = lower
    .replace(/\s+/g, ' ')
    .replace(/\s*\/\s*/g, '/')
    .replace(/\s*&\s*/g, ' & ');
  return INDEX_BY_NAME.get(name) ?? INDEX_BY_SLUG.get(lower);
}

/** The category named by its path or slug, case-insensitively (`technology/ai`, `technology-ai`); else null. */
export function categoryByNameOrSlug(value: string): Category | null {
  const i = indexOfNameOrSlug(value);
  return i === undefined ? null : CATEGORIES[i];
}

/** The names a category filter covers: the category itself and its descendants. [] for an unknown value. */
export function descendantsOf(name: string): string[] {
  const category = categoryByNameOrSlug(name);
  if (category === null) return [];
  const prefix = `${category.name}/`;
  return CATEGORIES.filter((c) => c.name === category.name || c.name.startsWith(prefix)).map((c) => c.name);
}

/** The indexes of a category's children, in taxonomy order. */
export function childIndexes(parentIndex: number): number[] {
  const parent = CATEGORIES[parentIndex].name;
  const out: number[] = [];
  CATEGORIES.forEach((c, i) => {
    if (c.parent === parent) out.push(i);
  });
  return out;
}
