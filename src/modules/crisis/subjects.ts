// Subjects: a user's interests that are about one thing. A person follows a crisis under several keywords
// (#yycflood, flood, Calgary), and people post under any of them: evaluated one key at a time, a crisis's posts
// are split and each key sees a share. Two of a user's interest keys are linked when posts from at least
// SUBJECT_LINK_ACCOUNTS independent accounts mention both within the longest window (near-duplicates folded
// first); a subject is a group of keys joined by links (a key without links is a subject of its own). Each key is
// still evaluated alone, and a subject's keys are also evaluated pooled: the union of their mentions, each post
// once, with every guard of a single key (per-account cap, near-duplicate folding, concern, evidence, baseline),
// and a post that mentions several of the keys is read for alarm against all of them: the words of every interest
// it mentions name the subject and never count as alarm ("earthquake" and "quake" followed together do not make
// each other's posts alarming). Pooling can only add an opening; keys that share no posts never add up.
import { countIndependent, SUBJECT_LINK_ACCOUNTS, type SubjectLink, type WindowMention } from './scoring.ts';

/** A key's stored mention in the window, with the post (signal) it came from. */
export type KeyedMention = WindowMention & { signal: number };

export interface Subject {
  /** Its interest keys, in the order given. */
  keys: string[];
  links: SubjectLink[];
}

/** An account as independent evidence counts it: platform + author (a platform's author-less posts are one). */
const accountOf = (m: WindowMention) => `${m.source}\u0000${m.author?.toLowerCase() ?? ''}`;

/**
 * The subjects among keys with mentions in the window (`byKey`, in the user's interest order): keys linked by the
 * posts of ≥ SUBJECT_LINK_ACCOUNTS independent accounts mentioning both, grouped transitively.
 */
export function linkSubjects(byKey: ReadonlyMap<string, readonly KeyedMention[]>): Subject[] {
  const keys = [...byKey.keys()];
  const index = new Map(keys.map((k, i) => [k, i]));
  // The keys each post mentions, and one mention of the post.
  const keysOf = new Map<number, number[]>();
  const postOf = new Map<number, KeyedMention>();
  for (const [key, mentions] of byKey) {
    for (const m of mentions) {
      const list = keysOf.get(m.signal);
      if (list) list.push(index.get(key)!);
      else keysOf.set(m.signal, [index.get(key)!]);
      if (!postOf.has(m.signal)) postOf.set(m.signal, m);
    }
  }
  const shared = new Map<string, KeyedMention[]>();
  for (const [signal, list] of keysOf) {
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const pair = `${Math.min(list[a], list[b])},${Math.max(list[a], list[b])}`;
        const posts = shared.get(pair);
        if (posts) posts.push(postOf.get(signal)!);
        else shared.set(pair, [postOf.get(signal)!]);
      }
    }
  }
  const parent = keys.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const links: { a: number; b: number; accounts: number }[] = [];
  for (const [pair, posts] of shared) {
    const accounts = new Set(countIndependent(posts).counted.map(accountOf)).size;
    if (accounts < SUBJECT_LINK_ACCOUNTS) continue;
    const [a, b] = pair.split(',').map(Number);
    links.push({ a, b, accounts });
    parent[root(b)] = root(a);
  }
  const groups = new Map<number, Subject>();
  for (let i = 0; i < keys.length; i++) {
    const r = root(i);
    const group = groups.get(r) ?? { keys: [], links: [] };
    group.keys.push(keys[i]);
    groups.set(r, group);
  }
  for (const link of links.sort((x, y) => x.a - y.a || x.b - y.b)) {
    groups.get(root(link.a))!.links.push({ keys: [keys[link.a], keys[link.b]], accounts: link.accounts });
  }
  return [...groups.values()];
}

/**
 * The pooled mentions of several keys' windows: one per post, and per post (signal) the keys it mentions. How
 * alarming a post that mentions several keys reads is the caller's (surges.ts reads it for all of them at once).
 */
export function poolMentions(byKey: ReadonlyMap<string, readonly KeyedMention[]>): {
  mentions: KeyedMention[];
  keysOf: Map<number, string[]>;
} {
  const bySignal = new Map<number, KeyedMention>();
  const keysOf = new Map<number, string[]>();
  for (const [key, mentions] of byKey) {
    for (const m of mentions) {
      if (!bySignal.has(m.signal)) bySignal.set(m.signal, m);
      const list = keysOf.get(m.signal);
      if (list) list.push(key);
      else keysOf.set(m.signal, [key]);
    }
  }
  return { mentions: [...bySignal.values()], keysOf };
}
