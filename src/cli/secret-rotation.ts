// Re-encrypting every stored secret from one SECRET_KEY to another (`crestwatch secret-key rotate`). One
// transaction for all of it: a value no key opens, a row changed meanwhile or a crash part-way leaves the
// database as it was. A value the new key already opens is left alone, so running it again is harmless.

import type { SecretBox } from '../platform/crypto.ts';
import { Progress } from './progress.ts';
import { SEALED_COLUMNS, type SealedColumnName, type SealedValuesStore } from './stores/sealed-values.ts';

const PAGE_SIZE = 500;

interface ColumnTally {
  table: string;
  column: string;
  /** Opened with the old key and sealed again with the new one (or, on a dry run, would be). */
  reencrypted: number;
  /** Already sealed with the new key: left as they are. */
  current: number;
  /** Opened by neither key. */
  unreadable: number;
}

/** Some stored value opens with neither key: nothing was changed. */
class RotationRefused extends Error {
  constructor(tallies: ColumnTally[]) {
    const bad = tallies.filter((t) => t.unreadable > 0);
    const total = bad.reduce((sum, t) => sum + t.unreadable, 0);
    super(
      `refusing to rotate: ${total} stored ${total === 1 ? 'value opens' : 'values open'} with neither ` +
        `OLD_SECRET_KEY nor SECRET_KEY (${bad.map((t) => `${t.table}.${t.column}: ${rows(t.unreadable)}`).join(', ')}). ` +
        'Nothing was changed. Is OLD_SECRET_KEY the key the service ran with?',
    );
  }
}

function rows(n: number): string {
  return `${n} ${n === 1 ? 'row' : 'rows'}`;
}

type Opened = { kind: 'current' } | { kind: 'old'; plain: string } | { kind: 'unreadable' };

function open(value: string, from: SecretBox, to: SecretBox): Opened {
  try {
    to.decrypt(value);
    return { kind: 'current' };
  } catch {
    // Not sealed with the new key: try the old one.
  }
  try {
    return { kind: 'old', plain: from.decrypt(value) };
  } catch {
    return { kind: 'unreadable' };
  }
}

interface RotationOptions {
  from: SecretBox;
  to: SecretBox;
  /** Count what would change, write nothing. */
  dryRun?: boolean;
}

/** Re-encrypts every sealed value; throws RotationRefused (having changed nothing) when one opens with neither key. */
export async function rotateSealedValues(
  store: SealedValuesStore,
  options: RotationOptions,
): Promise<ColumnTally[]> {
  const { from, to } = options;
  let total = 0;
  for (const column of SEALED_COLUMNS) total += await store.count(column);
  const progress = new Progress({ label: 'rotate', total, unit: 'values' });
  let seen = 0;
  try {
    return await store.transaction(async (trx) => {
      const tallies: ColumnTally[] = [];
      for (const sealed of SEALED_COLUMNS) {
        const tally: ColumnTally = { ...sealed, reencrypted: 0, current: 0, unreadable: 0 };
        tallies.push(tally);
        for (let afterId = 0; ; ) {
          const page = await store.page(sealed, afterId, PAGE_SIZE, trx);
          for (const { id, value } of page) {
            const opened = open(value, from, to);
            if (opened.kind === 'current') tally.current++;
            else if (opened.kind === 'unreadable') tally.unreadable++;
            else {
              tally.reencrypted++;
              if (
                !options.dryRun &&
                !(await store.replace(sealed, id, value, to.encrypt(opened.plain), trx))
              ) {
                throw changedMeanwhile(sealed, id);
              }
            }
            progress.update(++seen, seen);
          }
          if (page.length < PAGE_SIZE) break;
          afterId = page[page.length - 1]!.id;
        }
      }
      // Thrown inside the transaction so that what was written so far is rolled back.
      if (tallies.some((t) => t.unreadable > 0)) throw new RotationRefused(tallies);
      return tallies;
    });
  } finally {
    progress.finish();
  }
}

function changedMeanwhile(sealed: SealedColumnName, id: number): Error {
  return new Error(
    `${sealed.table} row ${id} changed while its ${sealed.column} was being re-encrypted, so nothing was ` +
      'changed. Stop every Crestwatch instance, then run the rotation again.',
  );
}
