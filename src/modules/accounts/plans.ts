// The contract's plan table. Operators override it with the PLANS variable (see config.ts).
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

/** Upstream's SubscriptionPlan plus our terms at the top level. */
export interface SubscriptionPlanView extends Plan {
  id: number;
  name: PlanName;
  description: string;
  price_monthly: null;
  price_yearly: null;
  is_custom: boolean;
  features: Plan;
}

const count = (n: number) => n.toLocaleString('en-US');

function usd(amount: number): string {
  // Cents unless the operator set a finer price, which must not be rounded away.
  return Number.isInteger(amount * 100) ? amount.toFixed(2) : String(amount);
}

export function describePlan(name: PlanName, plan: Plan): string {
  const title = name.charAt(0).toUpperCase() + name.slice(1);
  const quota =
    plan.daily_quota === null ? 'unlimited requests a day' : `${count(plan.daily_quota)} requests a day`;
  const insights =
    plan.insight_generations_per_month === null
      ? 'unlimited AI insight generations'
      : `${count(plan.insight_generations_per_month)} AI insight generations a month`;
  const stream = plan.live_stream ? 'live stream included' : 'no live stream';
  const price =
    plan.price_per_1k_requests === 0 ? 'free' : `USD ${usd(plan.price_per_1k_requests)} per 1,000 requests`;
  return `${title}: ${quota}, bursts of up to ${count(plan.burst_per_second)} requests per second per key, ${insights}, ${stream}; ${price}.`;
}

function sameTerms(a: Plan, b: Plan): boolean {
  return (Object.keys(b) as (keyof Plan)[]).every((k) => a[k] === b[k]);
}

/** The plan table in upstream's shape; ids are positions in PLAN_NAMES so they never change. */
export function planViews(plans: PlanTable): SubscriptionPlanView[] {
  return PLAN_NAMES.map((name, index) => {
    const plan = plans[name];
    const terms: Plan = {
      daily_quota: plan.daily_quota,
      burst_per_second: plan.burst_per_second,
      insight_generations_per_month: plan.insight_generations_per_month,
      live_stream: plan.live_stream,
      price_per_1k_requests: plan.price_per_1k_requests,
    };
    return {
      id: index + 1,
      name,
      description: describePlan(name, plan),
      price_monthly: null,
      price_yearly: null,
      // A PLANS entry that repeats the defaults changes nothing, so only differing terms count.
      is_custom: !sameTerms(plan, DEFAULT_PLANS[name]),
      features: terms,
      ...terms,
    };
  });
}

/** cost_estimated_today: counted requests × price per request, USD, 4 decimals. */
export function estimateCost(requests: number, plan: Plan): number {
  return Math.round(((requests * plan.price_per_1k_requests) / 1000) * 10_000) / 10_000;
}
