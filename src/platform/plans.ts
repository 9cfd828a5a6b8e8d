// The plan table: quotas, burst limits, insight generations, the live stream and prices. The platform's limits
// read it; operators override it with the PLANS variable (see config.ts).
export const PLAN_NAMES = ['developer', 'advantage', 'scale', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface Plan {
  /** Counted requests per UTC day; null = unlimited. */
  daily_quota: number | null;
  burst_per_second: number;
  /** AI insight generations per UTC calendar month; null = unlimited. */
  insight_generations_per_month: number | null;
  live_stream: boolean;
  price_per_1k_requests: number;
}

export type PlanTable = Record<PlanName, Plan>;

export const DEFAULT_PLANS: PlanTable = {
  developer: {
    daily_quota: 100,
    burst_per_second: 10,
    insight_generations_per_month: 10,
    live_stream: false,
    price_per_1k_requests: 0,
  },
  advantage: {
    daily_quota: 10_000,
    burst_per_second: 25,
    insight_generations_per_month: 500,
    live_stream: false,
    price_per_1k_requests: 0.5,
  },
  scale: {
    daily_quota: 25_000,
    burst_per_second: 50,
    insight_generations_per_month: 2000,
    live_stream: true,
    price_per_1k_requests: 0.4,
  },
  enterprise: {
    daily_quota: null,
    burst_per_second: 100,
    insight_generations_per_month: null,
    live_stream: true,
    price_per_1k_requests: 0.3,
  },
};

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}

/** cost_estimated_today: counted requests × price per request, USD, 4 decimals. */
export function estimateCost(requests: number, plan: Plan): number {
  return Math.round(((requests * plan.price_per_1k_requests) / 1000) * 10_000) / 10_000;
}
