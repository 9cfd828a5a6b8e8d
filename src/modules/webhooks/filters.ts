// A subscription's filters: checked and normalised when saved, matched against each event when triggering.
import { badRequest } from '../../platform/errors.ts';
import { severityRank } from '../alerts/index.ts';
import { requireCategory } from '../trends/index.ts';
import type { Filters } from './schemas.ts';

/** Stored filters (JSON text); anything unreadable filters nothing. */
export function parseFilters(text: string): Filters {
  try {
    const value = JSON.parse(text) as Filters;
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** A subscription's filters, checked for its trigger type: a filter that could never match is a 400. */
export function normaliseFilters(filters: Filters | undefined, triggerType: string): Filters {
  if (!filters) return {};
  const out: Filters = {};
  if (filters.category !== undefined) {
    // Crisis events carry no category (they concern an interest or a place): the filter would hold every one back.
    if (triggerType === 'crisis_event') {
      throw badRequest(
        'body.filters.category does not apply to crisis_event subscriptions: crisis events have no category. ' +
          'Use filters.keywords or filters.min_severity.',
        'body.filters.category',
      );
    }
    const category = filters.category.trim().replace(/\/+$/, '');
    if (!category) throw badRequest('body.filters.category must not be blank.', 'body.filters.category');
    // Read as GET /api/trends reads `category` (a path or slug; unknown → 400): a filter naming no category
    // would never let an event through.
    out.category = requireCategory(category, 'body.filters.category').name;
  }
  if (filters.keywords !== undefined) {
    const keywords = filters.keywords.map((k) => k.trim());
    const blank = keywords.findIndex((k) => k.length === 0);
    if (blank >= 0) {
      throw badRequest(
        `body.filters.keywords[${blank}] must not be blank.`,
        `body.filters.keywords[${blank}]`,
      );
    }
    out.keywords = [...new Set(keywords)];
  }
  if (filters.min_severity !== undefined) out.min_severity = filters.min_severity;
  return out;
}

const wordsOf = (text: string) =>
  ` ${text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;

/** True when the text contains the keyword as whole words (case, punctuation and `#` ignored). */
function containsKeyword(text: string, keyword: string): boolean {
  const k = wordsOf(keyword);
  return k.trim().length > 0 && wordsOf(text).includes(k);
}

/** A parent category matches its children (`Technology` matches `Technology/AI`). */
function categoryMatches(category: string, filter: string): boolean {
  const c = category.toLowerCase();
  const f = filter.toLowerCase().replace(/\/+$/, '');
  return c === f || c.startsWith(`${f}/`);
}

/** The subscription's filters against one event. */
export function filtersMatch(
  filters: Filters,
  subject: { category?: string | null; text: string; severity: string },
): boolean {
  if (filters.category && !(subject.category && categoryMatches(subject.category, filters.category)))
    return false;
  if (filters.keywords && filters.keywords.length > 0) {
    if (!filters.keywords.some((k) => containsKeyword(subject.text, k))) return false;
  }
  if (filters.min_severity && severityRank(subject.severity) < severityRank(filters.min_severity))
    return false;
  return true;
}
