// Topic interests: per user, keyed by the keyword normalised as trend keys are, so `#OpenAI` and `openai`
// are one interest and match the same trends.
import { type Clock, isoString } from '../../../platform/clock.ts';
import { badRequest, conflict, notFound } from '../../../platform/errors.ts';
import { normaliseKey } from '../../text/index.ts';
import type { AlertCondition } from './schemas.ts';
import type { InterestRow, InterestsStore } from './store.ts';

const MAX_INTERESTS_PER_USER = 100;

interface NewInterest {
  keyword: string;
  alert_condition_type?: AlertCondition;
  volume_threshold_value?: number;
  percentage_growth_value?: number;
}

function interestView(row: InterestRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    keyword: row.keyword,
    alert_condition_type: row.alert_condition_type as AlertCondition,
    volume_threshold_value: row.volume_threshold_value,
    percentage_growth_value: row.percentage_growth_value,
    created_at: isoString(row.created_at)!,
    status: row.status as 'active' | 'paused',
  };
}

export class InterestsService {
  constructor(
    private readonly store: InterestsStore,
    private readonly clock: Clock,
  ) {}

  async list(userId: number) {
    return (await this.store.list(userId)).map(interestView);
  }

  /** The caller's interest; another user's (or none) → 404. */
  async get(userId: number, id: number): Promise<InterestRow> {
    const row = await this.store.find(userId, id);
    if (!row) throw notFound(`You have no interest with id ${id}.`);
    return row;
  }

  /**
   * Every user's active interests that a trend of this name matches: the trend's key holds the interest's
   * key as whole words (what `GET /api/trends?interest=` selects), i.e. the interest key is a run of the
   * trend key's words.
   */
  async matchingTrend(trendName: string): Promise<InterestRow[]> {
    const key = normaliseKey(trendName.trim().replace(/^#/, ''));
    if (key === null) return [];
    const words = key.split(' ');
    const runs = new Set<string>();
    for (let i = 0; i < words.length; i++) {
      for (let j = i + 1; j <= words.length; j++) runs.add(words.slice(i, j).join(' '));
    }
    return this.store.activeWithKeys([...runs]);
  }

  /** Active interests of every user, in the order they were created: what the crisis detector watches. */
  watched(): Promise<{ user_id: number; keyword: string; key: string }[]> {
    return this.store.watched();
  }

  async create(userId: number, input: NewInterest) {
    const keyword = input.keyword.trim();
    const key = normaliseKey(keyword.replace(/^#/, ''));
    if (key === null) {
      throw badRequest(
        `keyword "${keyword}" has no words a trend could be named by (only stop-words, a URL or too short).`,
        'keyword',
      );
    }
    const type = input.alert_condition_type ?? 'crisis';
    if (type === 'volume_above' && input.volume_threshold_value === undefined) {
      throw badRequest(
        'volume_threshold_value is required when alert_condition_type is volume_above.',
        'volume_threshold_value',
      );
    }
    if (type === 'growth_above' && input.percentage_growth_value === undefined) {
      throw badRequest(
        'percentage_growth_value is required when alert_condition_type is growth_above.',
        'percentage_growth_value',
      );
    }
    if (type !== 'volume_above' && input.volume_threshold_value !== undefined) {
      throw badRequest(
        'volume_threshold_value applies only to alert_condition_type volume_above.',
        'volume_threshold_value',
      );
    }
    if (type !== 'growth_above' && input.percentage_growth_value !== undefined) {
      throw badRequest(
        'percentage_growth_value applies only to alert_condition_type growth_above.',
        'percentage_growth_value',
      );
    }
    if ((await this.store.count(userId)) >= MAX_INTERESTS_PER_USER) {
      throw conflict(
        `You follow ${MAX_INTERESTS_PER_USER} interests already; delete one first.`,
        'interest_limit_reached',
      );
    }
    const row = await this.store.insert({
      user_id: userId,
      keyword,
      key,
      alert_condition_type: type,
      volume_threshold_value: input.volume_threshold_value ?? null,
      percentage_growth_value: input.percentage_growth_value ?? null,
      status: 'active',
      created_at: this.clock.now(),
    });
    if (!row) throw conflict(`You already follow "${keyword}" (as "${key}").`, 'interest_exists');
    return interestView(row);
  }

  async delete(userId: number, id: number): Promise<void> {
    if (!(await this.store.delete(userId, id))) throw notFound(`You have no interest with id ${id}.`);
  }
}
