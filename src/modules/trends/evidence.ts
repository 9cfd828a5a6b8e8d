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

import { hash32 } from '../text/index.ts';

/** Hours of units kept: the newest hour seen and the two before it. Older mentions count in full. */
export const EVIDENCE_HOURS_KEPT = 3;
/** Units kept per hour (≈ 10 MB); past it, new units are not remembered and their mentions count in full. */
export const EVIDENCE_UNITS_PER_HOUR = 500_000;

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
 * A set of 32-bit units in one typed array (open addressing, linear probing, at most half full): an hour holds up
 * to EVIDENCE_UNITS_PER_HOUR of them, and a Set of that many numbers costs the garbage collector far more.
 */
export class UnitSet {
  private table = new Uint32Array(1024);
  private count = 0;
  /** 0 marks an empty slot, so the unit 0 is kept aside. */
  private hasZero = false;

  get size(): number {
    return this.count + (this.hasZero ? 1 : 0);
  }

  has(unit: number): boolean {
    if (unit === 0) return this.hasZero;
    const mask = this.table.length - 1;
    for (let i = mix(unit) & mask; ; i = (i + 1) & mask) {
      const slot = this.table[i]!;
      if (slot === unit) return true;
      if (slot === 0) return false;
    }
  }

  add(unit: number): void {
    if (unit === 0) {
      this.hasZero = true;
      return;
    }
    if (2 * (this.count + 1) > this.table.length) this.grow();
    if (this.place(this.table, unit)) this.count++;
  }

  /** Puts `unit` in `table`; false when it was there. */
  private place(table: Uint32Array, unit: number): boolean {
    const mask = table.length - 1;
    for (let i = mix(unit) & mask; ; i = (i + 1) & mask) {
      const slot = table[i]!;
      if (slot === unit) return false;
      if (slot === 0) {
        table[i] = unit;
        return true;
      }
    }
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    for (const unit of old) if (unit !== 0) this.place(this.table, unit);
  }
}

/** Spreads a unit's bits over the low ones a table index reads (units are FNV hashes, often alike low). */
function mix(unit: number): number {
  const h = Math.imul(unit ^ (unit >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Remembers which accounts and texts already counted for each trend in the last hours. `admit` judges a
 * mention against what committed batches counted plus what the batch being built counted; `commit` keeps a
 * batch's units once its transaction succeeded, so a batch that is rolled back or rebuilt counts nothing twice.
 */
export class EvidenceTracker {
  private readonly hours = new Map<number, UnitSet>();
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
        kept = new UnitSet();
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
