// Plans as upstream's SubscriptionPlan: the public plan table (`GET /api/plans`).
import { DEFAULT_PLANS, PLAN_NAMES, type Plan, type PlanName, type PlanTable } from '../../platform/plans.ts';

/** Upstream's SubscriptionPlan plus our terms at the top level. */
interface SubscriptionPlanView extends Plan {
  id: number;
  name: PlanName;
  description: string;
  price_monthly: null;
  price_yearly: null;
  is_custom: boolean;
  features: Plan;
}

const count = (n: number) => n.toLocaleString('en-US');
/** `1 request`, `10,000 requests`. */
const counted = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

function usd(amount: number): string {
  // Cents unless the operator set a finer price, which must not be rounded away.
  return Number.isInteger(amount * 100) ? amount.toFixed(2) : String(amount);
}

export function describePlan(name: PlanName, plan: Plan): string {
  const title = name.charAt(0).toUpperCase() + name.slice(1);
  const quota =
    plan.daily_quota === null ? 'unlimited requests a day' : `${counted(plan.daily_quota, 'request')} a day`;
  const insights =
    plan.insight_generations_per_month === null
      ? 'unlimited AI insight generations'
      : `${counted(plan.insight_generations_per_month, 'AI insight generation')} a month`;
  const stream = plan.live_stream ? 'live stream included' : 'no live stream';
  const price =
    plan.price_per_1k_requests === 0 ? 'free' : `USD ${usd(plan.price_per_1k_requests)} per 1,000 requests`;
  return `${title}: ${quota}, bursts of up to ${counted(plan.burst_per_second, 'request')} per second per key, ${insights}, ${stream}; ${price}.`;
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
