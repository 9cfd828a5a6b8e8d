// Live component checks for /status, recorded periodically for /status/history.

import type { Redis } from 'ioredis';
import type { Config } from '../../../config.ts';
import type { DB } from '../../../database.ts';
import { type Clock, DAY_MS, isoString } from '../../../platform/clock.ts';
import { pingDatabase } from '../../../platform/db/index.ts';
import type { JobQueue } from '../../../platform/jobs/index.ts';
import { type ComponentState, overallStatus, summarise } from './history.ts';
import type { StatusStore } from './store.ts';

export interface CheckResult {
  status: ComponentState;
  description: string;
  latencyMs?: number;
}

export type Check = () => Promise<CheckResult>;

interface StatusReport {
  overall_status: ComponentState;
  last_updated: string;
  components: { name: string; status: ComponentState; description: string }[];
}

const CHECK_TIMEOUT_MS = 3000;
const CACHE_MS = 2000;
const HISTORY_DAYS = 30;

async function timed(check: Check): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      check(),
      new Promise<CheckResult>((resolve) => {
        timer = setTimeout(
          () => resolve({ status: 'outage', description: `No answer within ${CHECK_TIMEOUT_MS} ms.` }),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { ...result, latencyMs: result.latencyMs ?? Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'outage',
      description: `Check failed: ${(error as Error).message.slice(0, 200)}`,
      latencyMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
  }
}

export class StatusService {
  private readonly checks = new Map<string, Check>();
  /** Components whose outage makes the overall status degraded, not an outage. */
  private readonly degradingOnly = new Set<string>();
  private cached: { at: number; value: StatusReport } | null = null;

  constructor(
    private readonly store: StatusStore,
    deps: { db: DB; redis?: Redis; jobs: JobQueue; clock: Clock; config: Config },
  ) {
    this.clock = deps.clock;
    this.register('api', async () => ({ status: 'operational', description: 'Answering requests.' }));
    this.register('database', async () => {
      const started = performance.now();
      await pingDatabase(deps.db);
      const ms = Math.round(performance.now() - started);
      return ms > 1000
        ? { status: 'degraded', description: `Slow: a trivial query took ${ms} ms.`, latencyMs: ms }
        : { status: 'operational', description: `${deps.config.database.kind} answering.`, latencyMs: ms };
    });
    if (deps.redis) {
      const redis = deps.redis;
      // Without Redis the service still answers (limited routes refuse with 503 until it returns, nothing
      // stored is lost), so its outage degrades the whole rather than taking it down.
      this.register(
        'redis',
        async () => {
          try {
            await redis.ping();
          } catch (error) {
            return {
              status: 'outage',
              description: `Not answering PING (${(error as Error).message.slice(0, 120)}); routes with limits answer 503 until it returns.`,
            };
          }
          return { status: 'operational', description: 'Answering PING.' };
        },
        { outageDegradesOverall: true },
      );
    }
    this.register('jobs', async () => {
      const stats = await deps.jobs.stats();
      const lagSeconds = Math.round((stats.oldestDueAgeMs ?? 0) / 1000);
      if (lagSeconds > 600)
        return { status: 'outage', description: `The oldest due job has waited ${lagSeconds} s.` };
      if (lagSeconds > 60)
        return { status: 'degraded', description: `The oldest due job has waited ${lagSeconds} s.` };
      return {
        status: 'operational',
        description: `${stats.counts.queued ?? 0} queued, ${stats.counts.running ?? 0} running.`,
      };
    });
  }

  private readonly clock: Clock;

  /** Further components (sources, LLM provider, release feeds: see app.ts) are added here. */
  register(name: string, check: Check, options: { outageDegradesOverall?: boolean } = {}): void {
    this.checks.set(name, check);
    if (options.outageDegradesOverall) this.degradingOnly.add(name);
    else this.degradingOnly.delete(name);
    this.cached = null;
  }

  /** Registered component names, in order. */
  names(): string[] {
    return [...this.checks.keys()];
  }

  async runChecks(): Promise<{ name: string; result: CheckResult }[]> {
    const entries = [...this.checks];
    const results = await Promise.all(entries.map(([, check]) => timed(check)));
    return entries.map(([name], i) => ({ name, result: results[i]! }));
  }

  async current(): Promise<StatusReport> {
    const now = this.clock.now();
    if (this.cached && Math.abs(now - this.cached.at) < CACHE_MS) return this.cached.value;
    const results = await this.runChecks();
    const value = {
      overall_status: overallStatus(
        results.map(({ name, result }) => ({
          status: result.status,
          degradesOnly: this.degradingOnly.has(name),
        })),
      ),
      last_updated: isoString(now)!,
      components: results.map(({ name, result }) => ({
        name,
        status: result.status,
        description: result.description,
      })),
    };
    this.cached = { at: now, value };
    return value;
  }

  /** Runs every check and stores the results; keeps 30 days (plus a day of margin). */
  async recordChecks(): Promise<void> {
    const now = this.clock.now();
    const results = await this.runChecks();
    await this.store.insert(
      results.map(({ name, result }) => ({
        component: name,
        status: result.status,
        detail: result.description,
        latency_ms: result.latencyMs ?? null,
        checked_at: now,
      })),
    );
    await this.store.pruneBefore(now - (HISTORY_DAYS + 1) * DAY_MS);
  }

  async history() {
    const now = this.clock.now();
    const from = Date.parse(
      `${new Date(now - (HISTORY_DAYS - 1) * DAY_MS).toISOString().slice(0, 10)}T00:00:00Z`,
    );
    return summarise(await this.store.since(from));
  }
}
