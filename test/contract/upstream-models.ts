// The response models of TrendsAGI's Python SDK 0.10.0 (`src/trendsagi/models.py`), written down as test data,
// and a checker that holds a JSON answer against them the way the SDK's pydantic parsing does (field by field).
//
// Field notation: `int` required and not null; `int?` Optional (absent or null); `int=` has a default (may be
// absent, never null). Types: int, float (any number), str, bool, datetime, date, dict (any object), any,
// `list<T>`, `map<T>` (object whose values are T), a model name, and unions `a|b`.

type FieldSpec = string;
type ModelSpec = Record<string, FieldSpec>;

export const MODELS: Record<string, ModelSpec> = {
  PaginationMeta: {
    total: 'int?',
    limit: 'int?',
    offset: 'int?',
    period: 'str?',
    sort_by: 'str?',
    order: 'str?',
    search: 'str?',
    category: 'str?',
    start_date: 'date?',
    end_date: 'date?',
  },
  AutocompleteResult: { name: 'str', category: 'str?', volume: 'int?', suggestion: 'str?' },
  AutocompleteResponse: { results: 'list<AutocompleteResult>=' },
  CategoryInfo: { name: 'str', trend_count: 'int=', id: 'int?', slug: 'str?', description: 'str?' },
  CategoryListResponse: { categories: 'list<CategoryInfo>' },
  TrendItem: {
    id: 'int?',
    title: 'str?',
    volume: 'int?',
    timestamp: 'datetime?',
    category: 'str?',
    sentiment: 'str?',
    sentiment_category: 'str?',
    type: 'str?',
    meta_description: 'str?',
    growth: 'float?',
    previous_volume: 'int?',
    absolute_change: 'int?',
    average_velocity: 'float?',
    trend_stability: 'float?',
    overall_trend: 'str?',
  },
  TrendListResponse: {
    trends: 'list<TrendItem>=',
    total: 'int?',
    results: 'list<TrendItem>?',
    meta: 'PaginationMeta?',
  },
  AnalysisResponse: { task_id: 'str', status: 'str' },
  TrendMetrics: {
    velocity_score: 'float?',
    velocity_1h: 'float?',
    predicted_cpc_usd: 'float?',
    commercial_intent: 'float?',
  },
  PlatformSignal: { primary_source: 'str?', virality_distribution: 'map<float>=' },
  AudienceInjection: {
    demographics: 'dict=',
    interest_keywords: 'list<str>=',
    negative_keywords: 'list<str>=',
    platform_payloads: 'dict=',
  },
  BrandSafety: { level: 'str?', flags: 'list<str>=' },
  AIInsight: {
    trend_id: 'int',
    trend_name: 'str?',
    sentiment_summary: 'str?',
    sentiment_category: 'str?',
    key_themes: 'list<str>=',
    content_brief: 'dict=',
    ad_platform_targeting: 'dict=',
    trend_metrics: 'TrendMetrics?',
    platform_signal: 'PlatformSignal?',
    audience_injection: 'AudienceInjection?',
    brand_safety: 'BrandSafety?',
    crm_and_support_insights: 'dict=',
    overall_topic_category_llm: 'str?',
    analysis_notes: 'str?',
    llm_model_used: 'str?',
    generated_at: 'datetime?',
    usage_count: 'int?',
    usage_limit: 'int?',
  },
  GenerateAIInsightResponse: { task_id: 'str', status: 'str', message: 'str?' },
  AIInsightTaskStatus: { status: 'str', error: 'str?' },
  SnapshotData: { timestamp: 'datetime', volume: 'int?' },
  TrendAnalyticsResponse: {
    trend_id: 'int',
    name: 'str',
    period: 'str',
    current_volume: 'int?',
    previous_volume: 'int?',
    volume_change_percent: 'float?',
    data: 'list<SnapshotData>=',
    velocity_per_hour: 'float?',
    velocity_trend: 'str?',
  },
  CrisisEvidence: {
    attribution: 'str?',
    licence_url: 'str?',
    id: 'int',
    source_id: 'str',
    reference_id: 'str',
    source_url: 'str',
    observed_at: 'datetime',
    retrieved_at: 'datetime',
    excerpt: 'str',
    claim: 'str',
    content_hash: 'str',
  },
  CrisisReview: {
    id: 'int',
    reviewer_id: 'int',
    assessment: 'str',
    rationale: 'str',
    evidence_version: 'str',
    created_at: 'datetime',
  },
  EvidenceCompleteness: { score: 'int', method: 'str', meaning: 'str?' },
  ResilienceSource: {
    id: 'str',
    name: 'str',
    attribution: 'str',
    licence_url: 'str',
    coverage: 'str',
    status: 'str',
    last_attempt_at: 'datetime?',
    last_success_at: 'datetime?',
    observation_count: 'int=',
    fetch_duration_ms: 'int?',
  },
  ResilienceSourceList: { sources: 'list<ResilienceSource>=' },
  ResilienceSettings: { location_query: 'str=' },
  CrisisEvent: {
    id: 'int',
    user_id: 'int',
    title: 'str',
    summary: 'str',
    severity: 'str',
    status: 'str',
    detected_at: 'datetime',
    source_keywords: 'list<str>?',
    impacted_entity: 'str?',
    created_at: 'datetime',
    updated_at: 'datetime',
    trend_id: 'int?',
    trend_snapshot_link: 'str?',
    detection_method: 'str?',
    method_version: 'str?',
    evidence_as_of: 'datetime?',
    freshness: 'str?',
    analysis_status: 'str?',
    severity_basis: 'str?',
    model_version: 'str?',
    provider_severity: 'str?',
    location: 'str?',
    source_state: 'str?',
    review_status: 'str?',
    evidence_version: 'str?',
    evidence_completeness: 'EvidenceCompleteness?',
    corroboration: 'dict?',
    source_refs: 'list<CrisisEvidence>=',
    reviews: 'list<CrisisReview>=',
    limitations: 'list<str>=',
  },
  CrisisEventListResponse: { events: 'list<CrisisEvent>', meta: 'PaginationMeta' },
  TopicInterest: {
    id: 'int',
    user_id: 'int',
    keyword: 'str?',
    alert_condition_type: 'str',
    volume_threshold_value: 'int?',
    percentage_growth_value: 'float?',
    created_at: 'datetime',
    status: 'str?',
  },
  SubscriptionPlan: {
    id: 'int',
    name: 'str',
    description: 'str?',
    price_monthly: 'map<float>|float?',
    price_yearly: 'map<float>|float?',
    is_custom: 'bool',
    features: 'dict?',
  },
  ComponentStatus: { name: 'str', status: 'str', description: 'str?' },
  StatusPage: { overall_status: 'str', last_updated: 'datetime', components: 'list<ComponentStatus>' },
  StatusHistoryResponse: { uptime_percentages: 'map<float>', daily_statuses: 'map<map<str>>' },
  BlogPost: {
    id: 'int',
    title: 'str',
    slug: 'str',
    excerpt: 'str?',
    cover_image: 'str?',
    published_at: 'datetime',
    author_name: 'str?',
    reading_time_minutes: 'int=',
    content: 'str?',
  },
  BlogPostListResponse: { posts: 'list<BlogPost>=', meta: 'PaginationMeta?' },
  UserSubscription: {
    plan_name: 'str?',
    status: 'str?',
    current_period_end: 'datetime?',
    cancel_at_period_end: 'bool=',
  },
  UserProfile: {
    id: 'int',
    email: 'str',
    full_name: 'str?',
    is_active: 'bool=',
    is_verified: 'bool?',
    organization_role: 'str?',
    subscription: 'UserSubscription?',
    avatar_url: 'str?',
    created_at: 'datetime?',
  },
  ApiKey: {
    id: 'int',
    name: 'str',
    prefix: 'str?',
    created_at: 'datetime?',
    last_used_at: 'datetime?',
    permissions: 'list<str>=',
    is_active: 'bool=',
  },
  ApiKeyCreateResponse: { id: 'int', name: 'str', api_key: 'str?', prefix: 'str?', created_at: 'datetime?' },
  ApiUsageSummary: {
    plan_daily_limit: 'int?',
    requests_today: 'int?',
    remaining_today: 'int?',
    total_requests_last_30_days: 'int?',
    cost_estimated_today: 'float?',
  },
  ApiUsageDaily: { date: 'date', request_count: 'int' },
  ApiUsageResponse: {
    summary: 'ApiUsageSummary?',
    daily_usage: 'list<ApiUsageDaily>=',
    total_requests_last_30_days: 'int?',
    cost_estimated_today: 'float?',
  },
  WebhookSubscription: {
    id: 'int',
    target_url: 'str',
    events: 'list<str>',
    is_active: 'bool',
    secret: 'str?',
    created_at: 'datetime',
    failure_count: 'int=',
  },
  SlackStatus: {
    is_active: 'bool?',
    team_name: 'str?',
    channel: 'str?',
    channel_id: 'str?',
    configuration_url: 'str?',
    new_trend_alerts: 'bool?',
  },
};

// pydantic's datetime parsing of strings: ISO 8601 date and time, optional fraction and zone.
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Splits `a|b` at the top level (not inside `<…>`). */
function alternatives(type: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    if (type[i] === '<') depth++;
    else if (type[i] === '>') depth--;
    else if (type[i] === '|' && depth === 0) {
      out.push(type.slice(start, i));
      start = i + 1;
    }
  }
  out.push(type.slice(start));
  return out;
}

/** Problems of `value` against `type`, each naming its path; empty when it parses. */
export function checkType(value: unknown, type: string, path: string): string[] {
  const options = alternatives(type);
  if (options.length > 1) {
    const results = options.map((t) => checkType(value, t, path));
    return results.some((r) => r.length === 0) ? [] : results.flat();
  }
  const bad = (what: string) => [`${path}: expected ${what}, got ${JSON.stringify(value)?.slice(0, 80)}`];
  const list = /^list<(.+)>$/.exec(type);
  if (list) {
    if (!Array.isArray(value)) return bad('an array');
    return value.flatMap((item, i) => checkType(item, list[1]!, `${path}[${i}]`));
  }
  const map = /^map<(.+)>$/.exec(type);
  if (map) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('an object');
    return Object.entries(value).flatMap(([k, v]) => checkType(v, map[1]!, `${path}.${k}`));
  }
  switch (type) {
    case 'any':
      return [];
    case 'int':
      return Number.isInteger(value) ? [] : bad('an integer');
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? [] : bad('a number');
    case 'str':
      return typeof value === 'string' ? [] : bad('a string');
    case 'bool':
      return typeof value === 'boolean' ? [] : bad('a boolean');
    case 'datetime':
      return typeof value === 'string' && DATETIME.test(value) && !Number.isNaN(Date.parse(value))
        ? []
        : bad('an ISO 8601 date-time');
    case 'date':
      return typeof value === 'string' && DATE.test(value) ? [] : bad('a YYYY-MM-DD date');
    case 'dict':
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? [] : bad('an object');
  }
  const model = MODELS[type];
  if (!model) throw new Error(`unknown type ${type} at ${path}`);
  return checkModel(value, type, path);
}

/** Problems of `value` against the SDK model `name`, field by field. */
export function checkModel(value: unknown, name: string, path = name): string[] {
  const model = MODELS[name];
  if (!model) throw new Error(`unknown model ${name}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [`${path}: expected a ${name} object, got ${JSON.stringify(value)?.slice(0, 80)}`];
  }
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [field, spec] of Object.entries(model)) {
    const optional = spec.endsWith('?');
    const defaulted = spec.endsWith('=');
    const type = optional || defaulted ? spec.slice(0, -1) : spec;
    const where = `${path}.${field}`;
    if (!(field in record) || record[field] === undefined) {
      if (!optional && !defaulted) problems.push(`${where}: required by the SDK model, missing`);
      continue;
    }
    if (record[field] === null) {
      if (!optional) problems.push(`${where}: the SDK model does not accept null`);
      continue;
    }
    problems.push(...checkType(record[field], type, where));
  }
  return problems;
}
