// Pure functions behind /status/history.
export type ComponentState = 'operational' | 'degraded' | 'outage';

const RANK: Record<ComponentState, number> = { operational: 0, degraded: 1, outage: 2 };

function worst(states: ComponentState[]): ComponentState {
  return states.reduce<ComponentState>((acc, s) => (RANK[s] > RANK[acc] ? s : acc), 'operational');
}

/**
 * The overall status: the worst component status, except that a component marked `degradesOnly` (its outage
 * leaves the service answering) counts at most as degraded.
 */
export function overallStatus(
  components: { status: ComponentState; degradesOnly: boolean }[],
): ComponentState {
  return worst(
    components.map(({ status, degradesOnly }) => (degradesOnly && status === 'outage' ? 'degraded' : status)),
  );
}

/** Uptime = share of checks that were not `outage`, in percent with 2 decimals (degraded still serves). */
export function uptimePercent(states: ComponentState[]): number {
  if (states.length === 0) return 100;
  const up = states.filter((s) => s !== 'outage').length;
  return Math.round((up / states.length) * 10_000) / 100;
}

/**
 * A day's status for one component: `outage` when at least half its checks were outages, `degraded` when any
 * check was not operational, else `operational`.
 */
export function dailyStatus(states: ComponentState[]): ComponentState {
  const outages = states.filter((s) => s === 'outage').length;
  if (states.length > 0 && outages * 2 >= states.length) return 'outage';
  return states.some((s) => s !== 'operational') ? 'degraded' : 'operational';
}

export function summarise(rows: { component: string; status: string; checked_at: number }[]): {
  uptime_percentages: Record<string, number>;
  daily_statuses: Record<string, Record<string, ComponentState>>;
} {
  const byComponent = new Map<string, ComponentState[]>();
  const byDay = new Map<string, Map<string, ComponentState[]>>();
  for (const row of rows) {
    const state = (row.status in RANK ? row.status : 'outage') as ComponentState;
    byComponent.set(row.component, [...(byComponent.get(row.component) ?? []), state]);
    const day = new Date(row.checked_at).toISOString().slice(0, 10);
    const components = byDay.get(day) ?? new Map<string, ComponentState[]>();
    components.set(row.component, [...(components.get(row.component) ?? []), state]);
    byDay.set(day, components);
  }
  const uptime_percentages: Record<string, number> = {};
  for (const [component, states] of [...byComponent].sort(([a], [b]) => a.localeCompare(b))) {
    uptime_percentages[component] = uptimePercent(states);
  }
  const daily_statuses: Record<string, Record<string, ComponentState>> = {};
  for (const [day, components] of [...byDay].sort(([a], [b]) => a.localeCompare(b))) {
    daily_statuses[day] = {};
    for (const [component, states] of [...components].sort(([a], [b]) => a.localeCompare(b))) {
      daily_statuses[day]![component] = dailyStatus(states);
    }
  }
  return { uptime_percentages, daily_statuses };
}
