// The decision brief as shown: what a rule stored (brief parts) judged against the time of reading. Pure.
//
// Freshness is decided when the brief is read, not when it was generated, so a brief turns stale (and stops
// being actionable) the moment its evidence ages out of its window, without waiting for the next
// regeneration:
// - `data_quality.freshness`: `fresh` while now ≤ fresh_until, `stale` after, `missing` without evidence;
// - `confidence` (evidence completeness, not a probability): the weight of the rule's signals that are
//   present, fresh evidence being one of them; `level` high ≥ 75, medium ≥ 50, low below;
// - `actionable`: fresh, the trigger still holds (not lapsed) and nothing blocks it (an open crisis about the
//   trend, an unsafe brand-safety rating, evidence you disputed).

const CONFIDENCE_METHOD = 'evidence_completeness_v1';

export interface Evidence {
  metric: string;
  label: string;
  value: unknown;
  unit: string | null;
  interpretation: string | null;
  source: string;
  source_url: string | null;
  /** ISO 8601. */
  observed_at: string | null;
}

/** One signal a complete decision rests on. */
export interface Check {
  signal: string;
  /** Weights of a rule's checks plus its freshness weight sum to 100. */
  weight: number;
  present: boolean;
  /** A sentence: why it is present, or what is missing. */
  reason: string;
}

/** What a rule stores; `present` turns it into the upstream RecommendationDecisionBrief. */
export interface BriefParts {
  why_now: string;
  evidence: Evidence[];
  checks: Check[];
  /** The weight of fresh evidence in the confidence score. */
  freshness_weight: number;
  expected_benefit: { outcome: string; basis: string; measurement: string };
  urgency: { level: string; window: string; reason: string };
  next_steps: string[];
  /** ISO 8601: when the numbers were observed. */
  snapshot_at: string | null;
  /** Reasons the recommendation must not be acted on whatever the freshness. */
  blockers: string[];
}

interface DecisionBrief {
  why_now: string;
  evidence: Evidence[];
  confidence: { score: number; level: string; method: string; reasons: string[]; missing_signals: string[] };
  expected_benefit: { outcome: string; basis: string; measurement: string };
  urgency: { level: string; window: string; reason: string };
  next_steps: string[];
  data_quality: {
    status: string;
    freshness: string;
    snapshot_at: string | null;
    evidence_count: number;
    missing_signals: string[];
  };
  actionable: boolean;
}

type Freshness = 'fresh' | 'stale' | 'missing';

export function freshnessAt(freshUntil: number | null, now: number): Freshness {
  if (freshUntil === null) return 'missing';
  return now <= freshUntil ? 'fresh' : 'stale';
}

const iso = (ms: number) => new Date(ms).toISOString();

function confidenceLevel(score: number): 'high' | 'medium' | 'low' {
  return score >= 75 ? 'high' : score >= 50 ? 'medium' : 'low';
}

/** The brief as of `now`. `lapsedAt`: when the rule stopped firing for this source (null while it fires). */
export function present(
  parts: BriefParts,
  state: { now: number; freshUntil: number | null; lapsedAt: number | null },
): DecisionBrief {
  const freshness = freshnessAt(state.freshUntil, state.now);
  const freshCheck: Check = {
    signal: 'fresh_evidence',
    weight: parts.freshness_weight,
    present: freshness === 'fresh',
    reason:
      freshness === 'fresh'
        ? `The evidence is fresh (until ${iso(state.freshUntil!)}).`
        : freshness === 'stale'
          ? `The evidence went stale at ${iso(state.freshUntil!)}.`
          : 'There is no timestamped evidence.',
  };
  const checks = [...parts.checks, freshCheck];
  const total = checks.reduce((sum, c) => sum + c.weight, 0);
  const got = checks.reduce((sum, c) => sum + (c.present ? c.weight : 0), 0);
  const score = total === 0 ? 0 : Math.max(0, Math.min(100, Math.round((got / total) * 100)));
  const missing = checks.filter((c) => !c.present).map((c) => c.signal);
  const lapsed = state.lapsedAt !== null;
  if (lapsed) missing.push('current_trigger');
  const reasons = checks.filter((c) => c.present).map((c) => c.reason);
  const notes = [
    ...checks.filter((c) => !c.present).map((c) => c.reason),
    ...(lapsed ? [`The trigger no longer holds (since ${iso(state.lapsedAt!)}).`] : []),
    ...parts.blockers,
  ];
  const actionable = freshness === 'fresh' && !lapsed && parts.blockers.length === 0;
  const urgency = actionable
    ? parts.urgency
    : {
        level: 'verify_first',
        window: lapsed ? 'None: the trigger lapsed' : 'Until the evidence is refreshed and nothing blocks it',
        reason: notes.join(' ') || 'The brief is not actionable.',
      };
  return {
    why_now: parts.why_now,
    evidence: parts.evidence,
    confidence: {
      score,
      level: confidenceLevel(score),
      method: CONFIDENCE_METHOD,
      reasons: [...reasons, ...notes.map((n) => `Missing or blocking: ${n}`)],
      missing_signals: missing,
    },
    expected_benefit: parts.expected_benefit,
    urgency,
    next_steps: parts.next_steps,
    data_quality: {
      status: lapsed ? 'lapsed' : score >= 75 ? 'strong' : score >= 50 ? 'partial' : 'weak',
      freshness,
      snapshot_at: parts.snapshot_at,
      evidence_count: parts.evidence.length,
      missing_signals: missing,
    },
    actionable,
  };
}

/** Why a brief is not actionable now, as one sentence (for the 409). */
export function notActionableReason(
  brief: DecisionBrief,
  parts: BriefParts,
  lapsedAt: number | null,
): string {
  const why: string[] = [];
  if (brief.data_quality.freshness !== 'fresh') why.push(`its evidence is ${brief.data_quality.freshness}`);
  if (lapsedAt !== null) why.push(`its trigger no longer holds (since ${iso(lapsedAt)})`);
  why.push(...parts.blockers.map((b) => b.replace(/\.$/, '')));
  return why.join('; ');
}
