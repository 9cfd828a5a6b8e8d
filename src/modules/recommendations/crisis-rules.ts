// Crisis rules: an open crisis event becomes pr_response (severity high or critical) or monitoring (low or
// medium); see the table in rules.ts.
import type { Check, Evidence } from './brief.ts';
import { type CrisisFacts, type Draft, type Priority, priorityRank, RULES } from './facts.ts';
import { paddedWords } from './matching.ts';

export function crisisDraft(crisis: CrisisFacts, link: string): Draft {
  const severe = crisis.severity === 'high' || crisis.severity === 'critical';
  const asOf = crisis.evidence_as_of;
  const e = (
    metric: string,
    label: string,
    value: unknown,
    unit: string | null,
    interpretation: string | null,
  ): Evidence => ({
    metric,
    label,
    value,
    unit,
    interpretation,
    source: 'crestwatch',
    source_url: link,
    observed_at: asOf,
  });
  const evidence: Evidence[] = [
    e('severity', 'Severity', crisis.severity, null, crisis.severity_basis),
    e('status', 'Event status', crisis.status, null, null),
    e('detected_at', 'Detected at', crisis.detected_at, null, null),
  ];
  if (crisis.independent_sources !== null)
    evidence.push(
      e('independent_sources', 'Independent sources', crisis.independent_sources, 'sources', null),
    );
  if (crisis.evidence_completeness)
    evidence.push(
      e(
        'evidence_completeness',
        'Evidence completeness (the event’s own score)',
        crisis.evidence_completeness.score,
        'score (0–100)',
        null,
      ),
    );
  if (crisis.source_state) evidence.push(e('source_state', 'Source state', crisis.source_state, null, null));
  if (crisis.review_status)
    evidence.push(e('review_status', 'Your review', crisis.review_status, null, null));
  const corroborated = (crisis.independent_sources ?? 0) >= RULES.corroboratingPlatforms;
  const complete = (crisis.evidence_completeness?.score ?? 0) >= RULES.crisisCompleteness;
  const reviewed = crisis.review_status === 'supported';
  const checks: Check[] = [
    {
      signal: 'severity_basis',
      weight: 20,
      present: crisis.severity_basis !== null,
      reason: crisis.severity_basis
        ? `Severity basis: ${crisis.severity_basis}`
        : 'The event states no severity basis.',
    },
    {
      signal: 'independent_corroboration',
      weight: 20,
      present: corroborated,
      reason: corroborated
        ? `${crisis.independent_sources} independent sources corroborate it.`
        : 'Fewer than 2 independent sources corroborate it.',
    },
    {
      signal: 'evidence_completeness',
      weight: 20,
      present: complete,
      reason: complete
        ? `The event's evidence completeness is ${crisis.evidence_completeness!.score}.`
        : `The event's evidence completeness is ${crisis.evidence_completeness?.score ?? 'unknown'} (below ${RULES.crisisCompleteness}).`,
    },
    {
      signal: 'human_review',
      weight: 20,
      present: reviewed,
      reason: reviewed
        ? 'You reviewed the evidence as supported.'
        : `The evidence is ${crisis.review_status ?? 'unreviewed'}: no review supports it yet.`,
    },
  ];
  const entity = crisis.impacted_entity ?? crisis.title;
  const evidenceUrl = `/api/intelligence/crisis-events/${crisis.id}`;
  const freshUntil = asOf === null ? null : Date.parse(asOf) + crisis.freshness_window_ms;
  const common = {
    source_key: `crisis:${crisis.id}`,
    source_trend_id: crisis.trend_id === null ? null : String(crisis.trend_id),
    source_trend_name: entity,
    source_words: paddedWords([...crisis.source_keywords, crisis.impacted_entity]),
    priority: crisis.severity as Priority,
    trigger_level: priorityRank(crisis.severity),
    fresh_until: freshUntil,
  };
  if (severe) {
    const steps = [
      `Review the evidence: GET ${evidenceUrl}/evidence.`,
      `Record your review against evidence_version ${crisis.evidence_version ?? '(none yet)'}: POST ${evidenceUrl}/reviews.`,
      `Publish a short, factual holding statement about ${entity} and say when you will update it.`,
      `Pause scheduled promotion about ${entity} (workflow pushes gated on it are refused while the event is active).`,
      ...(crisis.status === 'active'
        ? [
            `Acknowledge the event once the response is out: POST ${evidenceUrl}/action with {"action": "acknowledge"}.`,
          ]
        : []),
    ];
    return {
      ...common,
      type: 'pr_response',
      title: `Respond to the ${crisis.severity} crisis about ${entity}`,
      details: `${crisis.summary} A prompt, factual response limits how far the story spreads.`,
      parts: {
        why_now: `Crisis event #${crisis.id} "${crisis.title}" is ${crisis.severity} and ${crisis.status}: ${crisis.summary}`,
        evidence,
        checks,
        freshness_weight: 20,
        expected_benefit: {
          outcome: `Contain the damage to ${entity}: a visible, factual response before the story settles.`,
          basis: crisis.severity_basis ?? `A ${crisis.severity} crisis event.`,
          measurement:
            'Negative mentions per 30 minutes and the event’s severity over the next 24 hours, until it subsides.',
        },
        urgency:
          crisis.severity === 'critical'
            ? {
                level: 'act_now',
                window: 'Next 2 hours',
                reason: 'Critical severity: the story is spreading now.',
              }
            : {
                level: 'act_now',
                window: 'Next 6 hours',
                reason: 'High severity while the evidence is fresh.',
              },
        next_steps: steps,
        snapshot_at: asOf,
        blockers:
          crisis.review_status === 'disputed'
            ? ['You reviewed the evidence as disputed: confirm it before responding publicly.']
            : [],
      },
    };
  }
  return {
    ...common,
    type: 'monitoring',
    title: `Keep an eye on the ${crisis.severity} crisis about ${entity}`,
    details: `${crisis.summary} It is below high severity; a response is not called for yet.`,
    parts: {
      why_now: `Crisis event #${crisis.id} "${crisis.title}" is ${crisis.severity} and ${crisis.status}.`,
      evidence,
      checks,
      freshness_weight: 20,
      expected_benefit: {
        outcome: `Spot an escalation about ${entity} before it needs a public response.`,
        basis: crisis.severity_basis ?? `A ${crisis.severity} crisis event.`,
        measurement: 'Whether the event escalates to high within 24 hours.',
      },
      urgency: { level: 'monitor', window: 'Next 24 hours', reason: `Severity ${crisis.severity}.` },
      next_steps: [
        `Review the evidence: GET ${evidenceUrl}/evidence.`,
        'Get told when it escalates: POST /api/integrations/webhooks with trigger_type crisis_event and filters.min_severity high.',
        `Prepare a holding statement about ${entity} in case it escalates.`,
      ],
      snapshot_at: asOf,
      blockers: [],
    },
  };
}
