// Ad providers: selection, targeting previews built from a trend's insight, apply exactly once, rollback.

import type { Actor, AuditLog } from '../../../platform/audit.ts';
import type { Clock } from '../../../platform/clock.ts';
import { isoString } from '../../../platform/clock.ts';
import { ApiError, badRequest, conflict, notFound } from '../../../platform/errors.ts';
import { categoryByNameOrSlug, descendantsOf } from '../../text/index.ts';
import type { TrendsService } from '../../trends/index.ts';
import type { OAuthService } from '../oauth.ts';
import type { Interest, MetaClient } from '../providers/meta.ts';
import type { ApplyRow, IntegrationsStore } from '../store.ts';

const PREVIEW_TTL_MS = 30 * 60_000;
const MAX_KEYWORDS = 10;

const AD_PLATFORMS = {
  social_ads: {
    name: 'Social ads',
    capabilities: ['interest_search', 'targeting_preview', 'targeting_apply', 'targeting_rollback'],
  },
} as const;
type AdPlatform = keyof typeof AD_PLATFORMS;

/** The parts of an AIInsight the preview reads. */
export interface InsightLike {
  audience_injection?: {
    interest_keywords?: string[];
    negative_keywords?: string[];
    platform_payloads?: Record<string, unknown>;
  } | null;
  brand_safety?: { level?: string | null; flags?: string[] } | null;
}

export interface AdsDeps {
  store: IntegrationsStore;
  oauth: OAuthService;
  meta: MetaClient;
  clock: Clock;
  audit: AuditLog;
  trends: TrendsService;
  insights?: {
    latestFor?(userId: number, trendId: number): Promise<InsightLike | null | undefined>;
    offlineInsight?(trendId: number): Promise<InsightLike | null | undefined>;
  };
  crisis?: {
    blockingEventFor(
      userId: number,
      trend: { id: number; title: string },
    ): Promise<{ id: number; title: string; severity: string } | null>;
  };
}

interface AdsSelection {
  ad_account_id: string;
  ad_set_ids: string[];
  trend_category: string;
  strict_safety: boolean;
}

interface TargetingChange {
  ad_set_id: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** JSON with sorted keys: targeting read back may list keys in another order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function uniqueById(list: Interest[]): Interest[] {
  const seen = new Set<string>();
  return list.filter((i) => {
    if (seen.has(i.id)) return false;
    seen.add(i.id);
    return true;
  });
}

function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    : [];
}

/**
 * The proposed targeting: the trend's interests become the ad set's one `flexible_spec` group (people
 * matching any of them), its negative keywords are added to `exclusions.interests`; everything else (places,
 * ages, placements) is kept as it is.
 */
function proposeTargeting(
  before: Record<string, unknown>,
  interests: Interest[],
  exclusions: Interest[],
): Record<string, unknown> {
  const after: Record<string, unknown> = structuredClone(before);
  if (interests.length > 0) after.flexible_spec = [{ interests: uniqueById(interests) }];
  if (exclusions.length > 0) {
    const prior = (before.exclusions ?? {}) as Record<string, unknown>;
    const existing = Array.isArray(prior.interests) ? (prior.interests as Interest[]) : [];
    after.exclusions = { ...prior, interests: uniqueById([...existing, ...exclusions]) };
  }
  return after;
}

export class AdsService {
  constructor(private readonly deps: AdsDeps) {}

  platform(value: string): AdPlatform {
    if (!(value in AD_PLATFORMS))
      throw notFound(`There is no ad provider called ${JSON.stringify(value.slice(0, 64))}.`);
    return value as AdPlatform;
  }

  async providers(userId: number) {
    const providers = [];
    for (const [id, info] of Object.entries(AD_PLATFORMS)) {
      const connection = await this.deps.store.connection(userId, id);
      providers.push({
        id,
        name: info.name,
        connected: connection?.status === 'active',
        capabilities: [...info.capabilities],
      });
    }
    return { providers };
  }

  async saveSelection(userId: number, platform: string, body: AdsSelection): Promise<AdsSelection> {
    const id = this.platform(platform);
    const category = categoryByNameOrSlug(body.trend_category);
    if (!category) {
      throw badRequest(
        `trend_category ${JSON.stringify(body.trend_category)} is not a category (see GET /api/trends/categories).`,
        'trend_category',
      );
    }
    const connection = await this.deps.oauth.requireConnection(userId, id);
    const selection: AdsSelection = {
      ad_account_id: body.ad_account_id,
      ad_set_ids: [...new Set(body.ad_set_ids)],
      trend_category: category.name,
      strict_safety: body.strict_safety,
    };
    await this.deps.store.setSelection(connection.id, selection, this.deps.clock.now());
    return selection;
  }

  async preview(userId: number, trendId: number) {
    const { oauth, meta, clock, store } = this.deps;
    const connection = await oauth.requireConnection(userId, 'social_ads');
    if (!connection.selection) {
      throw conflict(
        'Save a selection (ad account, ad sets, category) before previewing.',
        'selection_required',
      );
    }
    const selection = JSON.parse(connection.selection) as AdsSelection;
    const trend = await this.deps.trends.get(trendId);
    const reasons: string[] = [];
    if (!descendantsOf(selection.trend_category).includes(trend.category)) {
      reasons.push(
        `The trend's category ${trend.category} is outside the selected category ${selection.trend_category}.`,
      );
    }
    const insight = await this.insightFor(userId, trendId);
    if (!insight?.audience_injection) reasons.push('The trend has no insight with audience_injection yet.');
    const level = insight?.brand_safety?.level ?? null;
    if (selection.strict_safety && level !== 'safe') {
      const flags = strings(insight?.brand_safety?.flags);
      reasons.push(
        `Brand safety is ${level ?? 'unknown'}${flags.length ? ` (${flags.join(', ')})` : ''} and strict_safety is on.`,
      );
    }
    const crisis = this.deps.crisis
      ? await this.deps.crisis.blockingEventFor(userId, { id: trend.id, title: trend.title })
      : null;
    if (crisis)
      reasons.push(`Crisis event ${crisis.id} (${crisis.severity}) "${crisis.title}" gates this trend.`);

    const injection = insight?.audience_injection ?? {};
    const payload = (injection.platform_payloads?.social_ads ?? {}) as Record<string, unknown>;
    const positive = [
      ...new Set([...strings(injection.interest_keywords), ...strings(payload.interests)]),
    ].slice(0, MAX_KEYWORDS);
    const negative = [...new Set(strings(injection.negative_keywords))].slice(0, MAX_KEYWORDS);
    const changes = await oauth.withToken(connection, async (token) => {
      const lookup = async (keywords: string[]) => {
        const found: Interest[] = [];
        for (const keyword of keywords) {
          const interest = await meta.searchInterest(token, keyword);
          if (interest) found.push(interest);
        }
        return found;
      };
      const interests = await lookup(positive);
      const exclusions = await lookup(negative);
      const out: TargetingChange[] = [];
      for (const adSetId of selection.ad_set_ids) {
        const before = await meta.targeting(token, adSetId);
        out.push({ ad_set_id: adSetId, before, after: proposeTargeting(before, interests, exclusions) });
      }
      return out;
    });
    const now = clock.now();
    const row = await store.insertPreview({
      user_id: userId,
      platform: 'social_ads',
      trend_id: trendId,
      changes: JSON.stringify(changes),
      blocked: reasons.length > 0 ? 1 : 0,
      blocked_reasons: JSON.stringify(reasons),
      created_at: now,
      expires_at: now + PREVIEW_TTL_MS,
    });
    return {
      preview_id: row.id,
      trend_id: trendId,
      changes,
      blocked: reasons.length > 0,
      blocked_reasons: reasons,
      expires_at: isoString(now + PREVIEW_TTL_MS)!,
    };
  }

  async apply(actor: Actor, previewId: number) {
    const { store, oauth, meta, clock } = this.deps;
    const userId = actor.userId;
    const preview = await store.preview(userId, previewId);
    if (!preview) throw notFound(`No preview has id ${previewId}.`);
    const first = await store.applyByPreview(preview.id);
    if (first) return this.applyView(first);
    if (preview.blocked) {
      const reasons = JSON.parse(preview.blocked_reasons) as string[];
      throw conflict(`This preview is blocked: ${reasons.join(' ')}`, 'preview_blocked');
    }
    if (Number(preview.expires_at) <= clock.now()) {
      throw conflict('This preview has expired; preview again.', 'preview_expired');
    }
    const connection = await oauth.requireConnection(userId, 'social_ads');
    const changes = JSON.parse(preview.changes) as TargetingChange[];
    const now = clock.now();
    const claim = await store.claimApply({
      user_id: userId,
      platform: preview.platform,
      preview_id: preview.id,
      status: 'applying',
      changes: preview.changes,
      created_at: now,
      rolled_back_at: null,
    });
    if (!claim) {
      const other = await store.applyByPreview(preview.id);
      if (other) return this.applyView(other);
      throw conflict('This preview is being applied right now.', 'apply_in_progress');
    }
    const written: TargetingChange[] = [];
    try {
      await oauth.withToken(connection, async (token) => {
        // The previewed change only holds while the ad sets still look as they did then.
        for (const change of changes) {
          const current = await meta.targeting(token, change.ad_set_id);
          if (canonical(current) !== canonical(change.before)) {
            throw conflict(
              `Ad set ${change.ad_set_id} changed since the preview; preview again.`,
              'targeting_changed',
            );
          }
        }
        for (const change of changes) {
          written.push(change);
          await meta.updateTargeting(token, change.ad_set_id, change.after);
        }
      });
    } catch (error) {
      await this.restore(connection, written);
      await store.deleteApply(claim.id);
      throw error;
    }
    await store.updateApply(claim.id, 'applying', { status: 'applied' });
    await this.deps.audit.record(
      userId,
      actor,
      'ads.applied',
      'ads_apply',
      claim.id,
      `Applied targeting preview ${preview.id} (trend ${preview.trend_id}) to ${changes.length} ad set(s).`,
    );
    return { apply_id: claim.id, preview_id: preview.id, status: 'applied' as const, changes };
  }

  async rollback(actor: Actor, platform: string, applyId: number) {
    const id = this.platform(platform);
    const { store, oauth, meta, clock } = this.deps;
    const apply = await store.apply(actor.userId, applyId);
    if (!apply || apply.platform !== id) throw notFound(`No apply has id ${applyId}.`);
    const changes = JSON.parse(apply.changes) as TargetingChange[];
    if (apply.status === 'rolled_back')
      return { apply_id: apply.id, status: 'rolled_back' as const, changes };
    if (apply.status !== 'applied') throw conflict('This apply is still in progress.', 'apply_in_progress');
    const connection = await oauth.requireConnection(actor.userId, id);
    await oauth.withToken(connection, async (token) => {
      for (const change of changes) await meta.updateTargeting(token, change.ad_set_id, change.before);
    });
    await store.updateApply(apply.id, 'applied', { status: 'rolled_back', rolled_back_at: clock.now() });
    await this.deps.audit.record(
      actor.userId,
      actor,
      'ads.rolled_back',
      'ads_apply',
      apply.id,
      `Rolled back apply ${apply.id}: restored the prior targeting of ${changes.length} ad set(s).`,
    );
    return { apply_id: apply.id, status: 'rolled_back' as const, changes };
  }

  private applyView(row: ApplyRow) {
    if (row.status === 'applying')
      throw conflict('This preview is being applied right now.', 'apply_in_progress');
    return {
      apply_id: row.id,
      preview_id: Number(row.preview_id),
      status: row.status as 'applied' | 'rolled_back',
      changes: JSON.parse(row.changes) as TargetingChange[],
    };
  }

  /** Best effort: puts back the ad sets a failed apply already changed. */
  private async restore(connection: Parameters<OAuthService['accessToken']>[0], written: TargetingChange[]) {
    if (written.length === 0) return;
    try {
      const token = await this.deps.oauth.accessToken(connection);
      for (const change of written)
        await this.deps.meta.updateTargeting(token, change.ad_set_id, change.before);
    } catch {
      // The apply failed anyway; its error is what the caller sees.
    }
  }

  private async insightFor(userId: number, trendId: number): Promise<InsightLike | null> {
    const insights = this.deps.insights;
    if (!insights) return null;
    try {
      const mine = insights.latestFor ? await insights.latestFor(userId, trendId) : null;
      if (mine) return mine;
      return (insights.offlineInsight ? await insights.offlineInsight(trendId) : null) ?? null;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }
}
