// Evidence weighting of mentions (docs/metrics.md, "Evidence"): a trend's velocity counts independent posts, not
// raw mentions, so one account posting 150 times in an hour, or one text copy-pasted from many accounts, counts
// once. A mention with an author counts as evidence unless its account, or its text (normalised by
// `textFingerprint`), already counted for the same trend in the same UTC hour. A mention without an author
// (feeds, the API without `author`) counts in full: nothing says two of them share an account.
//
// The units already counted are kept in memory by the processor (`EvidenceTracker`), for the last few hours
// and up to a bound per hour, as 32-bit hashes. With REDIS_URL set they are also shared through Redis
// (`SharedEvidence`, evidence-store.ts): every instance, and an instance after a restart, knows what the others
// counted. Without it a restart forgets them (an account can count once more in that hour) and each process
// keeps its own.

/** Hours of units kept: the newest hour seen and the two before it. Older mentions count in full. */
export const EVIDENCE_HOURS_KEPT = 3;
/** Units kept per hour (≈ 10 MB); past it, new units are not remembered and their mentions count in full. */
export const EVIDENCE_UNITS_PER_HOUR = 500_000;

const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S*|\bwww\.\S+/g;
const HANDLE = /(?<![\p{L}\p{N}_])@[\p{L}\p{N}_]+/gu;
const RETWEET = /^\s*rt\b[\s:]*/;
const NOT_LETTERS = /[^\p{L}\p{M}]+/gu;

/**
 * A text as copy-paste sees it: lower case, without URLs, @handles, a leading "RT", digits and punctuation,
 * words separated by single spaces. Two posts with the same fingerprint are one text, whatever their links,
 * mentions, counters or punctuation.
 */
export function textFingerprint(text: string): string {
  // NFKC leaves ASCII as it is; skipping it there saves a copy of most texts.
  return (isAscii(text) ? text : text.normalize('NFKC'))
    .toLowerCase()
    .replace(URL, ' ')
    .replace(HANDLE, ' ')
    .replace(RETWEET, '')
    .replace(NOT_LETTERS, ' ')
    .trim();
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** FNV-1a over UTF-16 code units, as an unsigned 32-bit integer (a small integer for V8's sets). */
function hash32(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The fingerprint of a signal's title and text, hashed. */
export function signalFingerprint(text: string, title?: string | null): number {
  return hash32(textFingerprint(title ? `${title} ${text}` : text));
}

/** Units by UTC hour. */
export type EvidenceUnits = Map<number, Set<number>>;

/** What a batch counted (`staged`, remembered once committed) and what other processes had counted. */
export interface EvidenceBatch {
  staged: EvidenceUnits;
  elsewhere: ReadonlyMap<number, ReadonlySet<number>>;
}

/** Evidence units shared between processes (Redis when configured). */
export interface SharedEvidence {
  /** Of the units asked about, by hour, those another process (or this one before a restart) shared. */
  counted(units: EvidenceUnits): Promise<EvidenceUnits>;
  /** Shares a committed batch's units. */
  share(units: EvidenceUnits): Promise<void>;
}

/**
 * Remembers which accounts and texts already counted for each trend in the last hours. `admit` judges a
 * mention against what committed batches counted plus what the batch being built counted; `commit` keeps a
 * batch's units once its transaction succeeded, so a batch that is rolled back or rebuilt counts nothing twice.
 */
export class EvidenceTracker {
  private readonly hours = new Map<number, Set<number>>();
  private newest = Number.NEGATIVE_INFINITY;

  /** A new batch to `admit` mentions into; `elsewhere`: units other processes counted (SharedEvidence). */
  batch(elsewhere: ReadonlyMap<number, ReadonlySet<number>> = new Map()): EvidenceBatch {
    return { staged: new Map(), elsewhere };
  }

  /**
   * Whether a mention of trend `key` in `hour` by `account` with text `fingerprint` is evidence; records its
   * units in `batch` when it is.
   */
  admit(
    batch: EvidenceBatch,
    key: string,
    hour: number,
    account: string | null,
    fingerprint: number,
  ): boolean {
    if (account === null || account === '') return true;
    if (hour <= this.newest - EVIDENCE_HOURS_KEPT) return true;
    const accountUnit = hash32(account, hash32(key, 0x1234567));
    const textUnit = (hash32(key, 0x7654321) ^ fingerprint) >>> 0;
    const kept = this.hours.get(hour);
    let staged = batch.staged.get(hour);
    const elsewhere = batch.elsewhere.get(hour);
    if (
      kept?.has(accountUnit) ||
      kept?.has(textUnit) ||
      staged?.has(accountUnit) ||
      staged?.has(textUnit) ||
      elsewhere?.has(accountUnit) ||
      elsewhere?.has(textUnit)
    ) {
      return false;
    }
    if (!staged) {
      staged = new Set();
      batch.staged.set(hour, staged);
    }
    staged.add(accountUnit);
    staged.add(textUnit);
    return true;
  }

  /** Remembers a committed batch's units and forgets hours older than the kept window. */
  commit(batch: EvidenceBatch): void {
    for (const [hour, units] of [...batch.staged, ...batch.elsewhere]) {
      if (hour > this.newest) this.newest = hour;
      let kept = this.hours.get(hour);
      if (!kept) {
        kept = new Set();
        this.hours.set(hour, kept);
      }
      for (const unit of units) {
        if (kept.size >= EVIDENCE_UNITS_PER_HOUR) break;
        kept.add(unit);
      }
    }
    for (const hour of this.hours.keys()) {
      if (hour <= this.newest - EVIDENCE_HOURS_KEPT) this.hours.delete(hour);
    }
  }
}
