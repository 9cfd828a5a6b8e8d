// Component checks beyond the platform's own: each signal source (from its stored health), the LLM
// provider (a short GET of its OpenAI-compatible /models) and the background loops' leases.
import type { Config } from '../../../config.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Singletons } from '../../../platform/leases.ts';
import type { SourceRunner, SourceView } from '../../signals/index.ts';
import type { Check, CheckResult } from './service.ts';

const LLM_TIMEOUT_MS = 2000;
/** The provider is asked at most this often (status pages are public; its quota is not). */
const LLM_CACHE_MS = 30_000;

/** One check per configured source, in configuration order: degraded while its last attempt failed. */
export function sourceChecks(runner: Pick<SourceRunner, 'sources' | 'list'>): [string, Check][] {
  // The checks of one /status run start together and share one read of source_state.
  let inflight: Promise<SourceView[]> | null = null;
  const views = () => {
    inflight ??= runner.list().finally(() => {
      inflight = null;
    });
    return inflight;
  };
  return runner.sources.map((source) => [
    source.id,
    async (): Promise<CheckResult> => {
      const view = (await views()).find((v) => v.id === source.id);
      if (!view || view.status === 'pending') {
        return { status: 'operational', description: `Source ${source.name}: no attempt yet.` };
      }
      if (view.status === 'degraded') {
        return {
          status: 'degraded',
          description: `Source ${source.name} failing since ${view.last_attempt_at}: ${view.last_error ?? 'unknown error'}.`,
        };
      }
      return {
        status: 'operational',
        description: `Source ${source.name}: last read ${view.last_success_at ?? view.last_attempt_at}.`,
      };
    },
  ]);
}

/**
 * The LLM provider's check: `GET {LLM_BASE_URL}/models` with the key, 2 s timeout. 2xx → operational (slow →
 * degraded), 429 → degraded, a refused key, 5xx, a timeout or no connection → outage. Cached 30 s.
 */
export function llmCheck(
  llm: Config['llm'],
  clock: Clock,
  fetchImpl: typeof fetch = globalThis.fetch,
): Check | null {
  if (!llm.baseUrl) return null;
  const url = `${llm.baseUrl.replace(/\/+$/, '')}/models`;
  let cached: { at: number; result: Promise<CheckResult> } | null = null;
  const probe = async (): Promise<CheckResult> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), LLM_TIMEOUT_MS);
    const started = performance.now();
    try {
      const response = await fetchImpl(url, {
        signal: controller.signal,
        headers: {
          accept: 'application/json',
          ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}),
        },
      });
      await response.body?.cancel().catch(() => {});
      const ms = Math.round(performance.now() - started);
      if (response.ok) {
        return ms > LLM_TIMEOUT_MS / 2
          ? { status: 'degraded', description: `LLM provider slow: /models took ${ms} ms.`, latencyMs: ms }
          : { status: 'operational', description: 'LLM provider answering.', latencyMs: ms };
      }
      if (response.status === 429) {
        return { status: 'degraded', description: 'LLM provider is rate limiting (429).', latencyMs: ms };
      }
      if (response.status === 401 || response.status === 403) {
        return {
          status: 'outage',
          description: `LLM provider refused the API key (${response.status}).`,
          latencyMs: ms,
        };
      }
      return { status: 'outage', description: `LLM provider answered ${response.status}.`, latencyMs: ms };
    } catch {
      const timedOut = controller.signal.aborted;
      return {
        status: 'outage',
        description: timedOut
          ? `LLM provider did not answer within ${LLM_TIMEOUT_MS} ms.`
          : 'LLM provider unreachable.',
      };
    } finally {
      clearTimeout(timer);
    }
  };
  return () => {
    const now = clock.now();
    if (!cached || Math.abs(now - cached.at) >= LLM_CACHE_MS) cached = { at: now, result: probe() };
    return cached.result;
  };
}

/**
 * `background`: which instance runs each loop that runs on one instance at a time (instances by their opaque
 * id; /metrics maps an id to its host). Degraded while a loop this instance runs has no holder: renewals are
 * failing, or its holder died and the lease has not expired yet.
 */
export async function backgroundCheck(
  leases: Pick<Singletons, 'names' | 'holdings' | 'instanceId'>,
): Promise<CheckResult> {
  const holdings = await leases.holdings();
  const byHolder = new Map<string, string[]>();
  for (const lease of holdings) {
    if (!lease.holder) continue;
    byHolder.set(lease.holder, [...(byHolder.get(lease.holder) ?? []), lease.name]);
  }
  const held = new Set(holdings.filter((lease) => lease.holder).map((lease) => lease.name));
  const orphaned = leases.names().filter((name) => !held.has(name));
  const parts = [...byHolder].map(
    ([holder, names]) =>
      `instance ${holder}${holder === leases.instanceId ? ' (this one)' : ''} runs ${names.join(', ')}`,
  );
  if (orphaned.length > 0) {
    return {
      status: 'degraded',
      description: `No instance runs ${orphaned.join(', ')} yet.${parts.length > 0 ? ` Otherwise ${parts.join('; ')}.` : ''}`,
    };
  }
  return { status: 'operational', description: `Each loop on one instance: ${parts.join('; ')}.` };
}
