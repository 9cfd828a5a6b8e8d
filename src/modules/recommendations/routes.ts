// /api/intelligence/recommendations: the caller's recommendations with decision briefs, and their actions.
import { requirePrincipal } from '../../platform/auth.ts';
import type { App } from '../../platform/http.ts';
import {
  RecommendationActionBody,
  RecommendationConfidenceSchema,
  RecommendationDataQualitySchema,
  RecommendationDecisionBriefSchema,
  RecommendationEvidenceSchema,
  RecommendationExpectedBenefitSchema,
  RecommendationIdParams,
  RecommendationListQuery,
  RecommendationListResponse,
  RecommendationSchema,
  RecommendationUrgencySchema,
} from './schemas.ts';
import type { RecommendationsService } from './service.ts';

const tags = ['recommendations'];
const read = { access: { permission: 'read' as const } };
const write = { access: { permission: 'write' as const } };

export async function recommendationRoutes(
  app: App,
  { recommendations }: { recommendations: RecommendationsService },
): Promise<void> {
  for (const schema of [
    RecommendationEvidenceSchema,
    RecommendationConfidenceSchema,
    RecommendationExpectedBenefitSchema,
    RecommendationUrgencySchema,
    RecommendationDataQualitySchema,
    RecommendationDecisionBriefSchema,
    RecommendationSchema,
  ]) {
    app.addSchema(schema);
  }
  const recommendation = { $ref: 'Recommendation#' } as unknown as typeof RecommendationSchema;

  app.get(
    '/api/intelligence/recommendations',
    {
      config: read,
      schema: {
        tags,
        summary: 'Your prioritised, evidence-backed recommendations',
        description:
          'Generated for you by Crestwatch’s rule engine from your interests, the trends matching them (velocity ' +
          'levels 50, 75 and 90, lifecycle stage), your open crisis events and your latest AI insights (brand ' +
          'safety, commercial intent, complaints); regenerated when you read them (at most every 30 s, sooner ' +
          'after a trend or crisis event changed). One recommendation per source and type. Each carries a ' +
          '`decision_brief`: why now, the evidence with its numbers and API links, confidence (evidence ' +
          'completeness, not a probability), expected benefit, urgency, next steps, data quality and whether ' +
          'it is actionable now. `status` defaults to `new`; `limit` above 100 is capped at 100.',
        querystring: RecommendationListQuery,
        response: { 200: RecommendationListResponse },
      },
    },
    async (request) => recommendations.list(requirePrincipal(request).userId, request.query),
  );

  app.post(
    '/api/intelligence/recommendations/:recommendation_id/action',
    {
      config: write,
      schema: {
        tags,
        summary: 'Change a recommendation’s workflow state, or leave feedback on it',
        description:
          'Exactly one of `action` (new, viewed, actioned, dismissed: any state may follow any other) or ' +
          '`feedback` (at most 500 characters; replaces your previous note). `actioned` is refused with 409 ' +
          '`recommendation_not_actionable` while the decision brief is not actionable (stale evidence, a lapsed ' +
          'trigger, or something blocking it): refresh it and check its missing evidence first. A dismissed or ' +
          'actioned recommendation comes back as `new` only when its trigger grows stronger. Returns the ' +
          'recommendation.',
        params: RecommendationIdParams,
        body: RecommendationActionBody,
        response: { 200: recommendation },
      },
    },
    async (request) =>
      recommendations.act(requirePrincipal(request).userId, request.params.recommendation_id, request.body),
  );
}
