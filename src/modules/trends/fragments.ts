// Fragments fold (docs/metrics.md, "Fragments fold"): phrases extracted from the same mentions ("Waldo Canyon",
// "#waldocanyon") become one trend. Pairs of a post's phrases that may be fragments of one another are counted
// while the phrase is a candidate; on promotion it folds into such a trend when most of its posts named it too,
// and becomes its alias, which routes the phrase's later mentions there (every instance reads the aliases).
import { normaliseKey, titleFrom } from '../text/index.ts';
import type { Accumulated } from './accumulation.ts';

/** A promoted phrase folded into a trend as its alias. */
export interface Fold {
  key: string;
  target: string;
  alias: string;
}

/** Aliases other instances recorded are read at most this often. */
const ALIASES_REFRESH_MS = 5_000;
/**
 * A promoted phrase folds into a fragment-related trend when at least this share of its posts named that trend
 * too, and at least FOLD_MIN_POSTS of them.
 */
const FOLD_SHARE = 0.6;
const FOLD_MIN_POSTS = 2;
/** Glued keys remembered; the memory is emptied past it. */
const GLUED_KEPT = 50_000;

export class Fragments {
  /** Folded phrases' keys → their trend's key (trend_aliases), read incrementally. */
  readonly aliases = new Map<string, string>();
  private aliasCursor = 0;
  private aliasesReadAt = Number.NEGATIVE_INFINITY;
  /** Keys glued and normalised (`foldable`), remembered. */
  private readonly gluedKeys = new Map<string, string>();

  constructor(
    private readonly store: {
      aliasesAfter(afterId: number): Promise<{ id: number; key: string; target: string }[]>;
    },
  ) {}

  /** New aliases (other instances fold too), at most every ALIASES_REFRESH_MS. */
  async readAliases(now: number): Promise<void> {
    if (now < this.aliasesReadAt + ALIASES_REFRESH_MS && now >= this.aliasesReadAt) return;
    this.aliasesReadAt = now;
    for (const row of await this.store.aliasesAfter(this.aliasCursor)) {
      this.aliases.set(row.key, row.target);
      this.aliasCursor = Math.max(this.aliasCursor, row.id);
    }
  }

  /** Folds this process committed route at once. */
  remember(folds: readonly Fold[]): void {
    for (const f of folds) this.aliases.set(f.key, f.target);
  }

  /**
   * Whether two phrases of one post may be fragments of one another: the same words glued or spaced
   * ("waldo canyon", "#waldocanyon"), or one a run of the other's words that has two words or more ("waldo
   * canyon" in "waldo canyon fire"; a single word is no fragment: "fire" names many stories).
   */
  foldable(a: string, b: string): boolean {
    if (a === b) return true;
    // Two other single words are two keys, glued or not.
    if (!a.includes(' ') && !b.includes(' ')) return false;
    const [short, long] = a.length <= b.length ? [a, b] : [b, a];
    if (short.includes(' ') && ` ${long} `.includes(` ${short} `)) return true;
    // Gluing keeps a key's first letter: keys that start apart never glue into one (most pairs of a post's
    // phrases; normalising a glued key costs microseconds, on the event loop).
    if (a.charCodeAt(0) !== b.charCodeAt(0)) return false;
    return this.glued(a) === this.glued(b);
  }

  private glued(key: string): string {
    let glued = this.gluedKeys.get(key);
    if (glued === undefined) {
      glued = key.includes(' ') ? (normaliseKey(key.replaceAll(' ', '')) ?? key) : key;
      if (this.gluedKeys.size >= GLUED_KEPT) this.gluedKeys.clear();
      this.gluedKeys.set(key, glued);
    }
    return glued;
  }

  /**
   * Promoted phrases that are fragments of a trend (`foldable`, named together in at least FOLD_SHARE of the
   * phrase's posts) fold into it: they leave the batch (their posts that named the trend are counted there
   * already) and become its aliases. A phrase another folded into does not fold.
   */
  fold(
    promoted: Accumulated[],
    byKey: Map<string, Accumulated>,
    known: ReadonlyMap<string, unknown>,
  ): Fold[] {
    const folds: Fold[] = [];
    const targets = new Set<string>();
    // The least named first, so the busier survives; on a tie the glued form ("waldocanyon") folds into the spaced.
    const spaces = (key: string) => key.split(' ').length;
    promoted.sort(
      (a, b) => a.mentions - b.mentions || spaces(a.key) - spaces(b.key) || (a.key < b.key ? -1 : 1),
    );
    for (const acc of promoted) {
      if (targets.has(acc.key)) continue;
      let best: string | undefined;
      let bestPosts = 0;
      for (const [key, posts] of acc.related) {
        const target = this.aliases.get(key) ?? key;
        if (target === acc.key || !(known.has(target) || byKey.has(target))) continue;
        if (posts < FOLD_MIN_POSTS || posts < FOLD_SHARE * acc.mentions) continue;
        if (posts > bestPosts || (posts === bestPosts && best !== undefined && target < best)) {
          best = target;
          bestPosts = posts;
        }
      }
      if (best === undefined) continue;
      targets.add(best);
      byKey.delete(acc.key);
      folds.push({ key: acc.key, target: best, alias: titleFrom(acc.surfaces) || acc.key });
    }
    return folds;
  }
}
