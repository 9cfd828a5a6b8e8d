// Customer posts for the sentiment evaluation, written by the Crestwatch team for this purpose (not collected from
// any platform, not taken from any data set; brands and flight numbers are invented), labelled negative, positive
// or neutral by the team. One JSON Lines file per set in data/; data/README.md says who wrote each set, when,
// and whether it was used to build the rules (development) or never read while building them (held-out).
import Type, { type Static } from 'typebox';
import { loadJsonl } from '../../src/platform/data-files.ts';

const PostLabelSchema = Type.Union([
  Type.Literal('negative'),
  Type.Literal('positive'),
  Type.Literal('neutral'),
]);
export type PostLabel = Static<typeof PostLabelSchema>;

/** The sets, in the order the evaluation reports them (`data/customer-posts.<set>.jsonl`). */
export const POST_SETS = [
  'development',
  'held-out',
  'development-2',
  'held-out-2',
  'dev-narratives',
  'held-out-3',
  'development-3',
  'development-4',
  'held-out-4',
  'development-5',
  'held-out-5',
  'development-6',
  'held-out-6',
] as const;
export type PostSet = (typeof POST_SETS)[number];

const CustomerPostSchema = Type.Object(
  {
    label: PostLabelSchema,
    /** The sector the post is about (airline, telecom, software, retail, bank, food). */
    sector: Type.String({ minLength: 1 }),
    text: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);
export type CustomerPost = Static<typeof CustomerPostSchema>;

/** Every post of a data folder laid out as data/ is, set by set in POST_SETS order, each file checked. */
export function readPosts(dir: URL): (CustomerPost & { set: PostSet })[] {
  return POST_SETS.flatMap((set) =>
    loadJsonl(new URL(`customer-posts.${set}.jsonl`, dir), CustomerPostSchema).map((p) => ({
      sector: p.sector,
      label: p.label,
      text: p.text,
      set,
    })),
  );
}

/** Every post, with the set it belongs to. */
export const CUSTOMER_POSTS: readonly (CustomerPost & { set: PostSet })[] = readPosts(
  new URL('./data/', import.meta.url),
);
