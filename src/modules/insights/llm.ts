// Optional LLM provider: an OpenAI-compatible chat-completions call with a JSON-schema response format.
// The model only writes the qualitative fields; every number (metrics, shares, CPC, brand-safety level)
// stays the offline analyzer's. A timeout, an HTTP error or a reply that fails the schema is an LlmError,
// and the caller falls back to the offline insight.
import { Ajv } from 'ajv';
import { request } from 'undici';
import type { AIInsight, AnalyzerSignal } from './analyzer.ts';

export class LlmError extends Error {
  override readonly name = 'LlmError';
}

const strings = (max: number) => ({
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 300 },
  minItems: 1,
  maxItems: max,
});

/** What the model must answer (strict JSON schema, no extra keys). */
const LLM_REPLY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [
    'sentiment_summary',
    'sentiment_category',
    'key_themes',
    'content_brief',
    'ad_platform_targeting',
    'crm_and_support_insights',
    'overall_topic_category',
    'interest_keywords',
    'negative_keywords',
  ],
  properties: {
    sentiment_summary: { type: 'string', minLength: 1, maxLength: 1000 },
    sentiment_category: { type: 'string', enum: ['positive', 'negative', 'neutral', 'mixed'] },
    key_themes: strings(10),
    content_brief: {
      type: 'object',
      additionalProperties: false,
      required: [
        'target_audience_segments',
        'key_angles_for_content',
        'suggested_content_formats',
        'call_to_action_ideas',
      ],
      properties: {
        target_audience_segments: strings(8),
        key_angles_for_content: strings(8),
        suggested_content_formats: strings(8),
        call_to_action_ideas: strings(8),
      },
    },
    ad_platform_targeting: {
      type: 'object',
      additionalProperties: false,
      required: [
        'primary_audience_keywords',
        'secondary_audience_keywords',
        'potential_demographics_summary',
      ],
      properties: {
        primary_audience_keywords: strings(12),
        secondary_audience_keywords: strings(12),
        potential_demographics_summary: { type: 'string', minLength: 1, maxLength: 1000 },
      },
    },
    crm_and_support_insights: {
      type: 'object',
      additionalProperties: false,
      required: ['common_complaints', 'common_questions', 'suggested_responses'],
      properties: {
        common_complaints: strings(8),
        common_questions: strings(8),
        suggested_responses: strings(8),
      },
    },
    overall_topic_category: { type: 'string', minLength: 1, maxLength: 200 },
    interest_keywords: strings(12),
    negative_keywords: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 100 },
      maxItems: 20,
    },
  },
} as const;

interface LlmReply {
  sentiment_summary: string;
  sentiment_category: string;
  key_themes: string[];
  content_brief: AIInsight['content_brief'];
  ad_platform_targeting: AIInsight['ad_platform_targeting'];
  crm_and_support_insights: AIInsight['crm_and_support_insights'];
  overall_topic_category: string;
  interest_keywords: string[];
  negative_keywords: string[];
}

const validate = new Ajv({ allErrors: false, strict: false }).compile<LlmReply>(LLM_REPLY_SCHEMA);

interface LlmOptions {
  baseUrl: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
}

const SAMPLE_SIGNALS = 40;
const SAMPLE_CHARS = 280;

export class LlmProvider {
  readonly model: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: LlmOptions) {
    this.model = options.model ?? 'gpt-4o-mini';
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** The prompt: the offline numbers and a bounded sample of signal texts. */
  messages(offline: AIInsight, signals: AnalyzerSignal[]): { role: string; content: string }[] {
    const sample = signals
      .slice(0, SAMPLE_SIGNALS)
      .map((s, i) =>
        `${i + 1}. [${s.source}] ${(s.title ? `${s.title}. ` : '') + s.text}`.slice(0, SAMPLE_CHARS),
      );
    const facts = {
      trend: offline.trend_name,
      category: offline.overall_topic_category_llm,
      trend_metrics: offline.trend_metrics,
      platform_signal: offline.platform_signal,
      brand_safety: offline.brand_safety,
      computed_sentiment: offline.sentiment_summary,
      computed_themes: offline.key_themes,
    };
    return [
      {
        role: 'system',
        content:
          'You are a marketing analyst. From the trend facts and sample posts, write an actionable brief as JSON ' +
          'matching the schema. Use only numbers given in the facts; do not invent figures.',
      },
      {
        role: 'user',
        content: `Facts (computed, authoritative):\n${JSON.stringify(facts)}\n\nSample posts (${sample.length}):\n${sample.join('\n')}`,
      },
    ];
  }

  async complete(offline: AIInsight, signals: AnalyzerSignal[]): Promise<{ reply: LlmReply; model: string }> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const body = {
      model: this.model,
      temperature: 0.2,
      messages: this.messages(offline, signals),
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'crestwatch_insight', strict: true, schema: LLM_REPLY_SCHEMA },
      },
    };
    let status: number;
    let text: string;
    try {
      const res = await request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (error) {
      const reason =
        error instanceof Error && /timeout|abort/i.test(`${error.name} ${error.message}`)
          ? 'timed out'
          : 'could not be reached';
      throw new LlmError(`the LLM endpoint ${reason}`);
    }
    if (status < 200 || status >= 300) throw new LlmError(`the LLM endpoint answered HTTP ${status}`);
    let content: unknown;
    let model = this.model;
    try {
      const parsed = JSON.parse(text) as { model?: unknown; choices?: { message?: { content?: unknown } }[] };
      if (typeof parsed.model === 'string' && parsed.model.length > 0 && parsed.model.length <= 100)
        model = parsed.model;
      const raw = parsed.choices?.[0]?.message?.content;
      if (typeof raw !== 'string') throw new Error('no message content');
      content = JSON.parse(raw);
    } catch {
      throw new LlmError('the LLM reply was not a chat completion carrying JSON');
    }
    if (!validate(content)) {
      const first = validate.errors?.[0];
      throw new LlmError(
        `the LLM reply did not match the schema (${first?.instancePath || '/'} ${first?.message ?? 'invalid'})`,
      );
    }
    return { reply: content, model };
  }
}

/** The offline insight with the model's qualitative fields laid over it (numbers stay the offline ones). */
export function mergeReply(offline: AIInsight, reply: LlmReply, model: string): AIInsight {
  return {
    ...offline,
    sentiment_summary: reply.sentiment_summary,
    sentiment_category: reply.sentiment_category,
    key_themes: reply.key_themes,
    content_brief: reply.content_brief,
    ad_platform_targeting: reply.ad_platform_targeting,
    crm_and_support_insights: reply.crm_and_support_insights,
    overall_topic_category_llm: reply.overall_topic_category,
    audience_injection: offline.audience_injection && {
      ...offline.audience_injection,
      interest_keywords: reply.interest_keywords,
      negative_keywords: [
        ...new Set([...offline.audience_injection.negative_keywords, ...reply.negative_keywords]),
      ],
    },
    llm_model_used: model,
    analysis_notes:
      `LLM ${model} wrote the qualitative fields from ${Math.min(SAMPLE_SIGNALS, 40)} sample mentions; numbers are computed. ${offline.analysis_notes ?? ''}`.trim(),
  };
}
