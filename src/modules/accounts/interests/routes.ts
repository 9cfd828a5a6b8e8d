// /api/user/interests: list, follow, unfollow.
import { requirePrincipal } from '../../../platform/auth.ts';
import type { App } from '../../../platform/http.ts';
import { NoContent } from '../../../platform/schemas.ts';
import {
  CreateInterestBody,
  InterestIdParams,
  InterestListResponse,
  TopicInterestSchema,
} from './schemas.ts';
import type { InterestsService } from './service.ts';

export async function interestRoutes(
  app: App,
  { interests }: { interests: InterestsService },
): Promise<void> {
  app.get(
    '/api/user/interests',
    {
      config: { access: { permission: 'read' } },
      schema: {
        tags: ['account'],
        summary: 'Your topic interests',
        response: { 200: InterestListResponse },
      },
    },
    async (request) => interests.list(requirePrincipal(request).userId),
  );

  app.post(
    '/api/user/interests',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags: ['account'],
        summary: 'Follow a topic',
        description:
          'The keyword is normalised as trend names are (`#OpenAI` = `openai`); following the same topic ' +
          'twice → 409 `interest_exists`. At most 100 per user (409 `interest_limit_reached`).',
        body: CreateInterestBody,
        response: { 201: TopicInterestSchema },
      },
    },
    async (request, reply) => {
      const interest = await interests.create(requirePrincipal(request).userId, request.body);
      return reply.code(201).send(interest);
    },
  );

  app.delete(
    '/api/user/interests/:interest_id',
    {
      config: { access: { permission: 'write' } },
      schema: {
        tags: ['account'],
        summary: 'Stop following a topic',
        params: InterestIdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await interests.delete(requirePrincipal(request).userId, request.params.interest_id);
      return reply.code(204).send(null);
    },
  );
}
