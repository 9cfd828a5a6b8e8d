// /api/user/interests: list, follow, unfollow. Also served at /api/user/topic-interests, the path an earlier
// generation of upstream's SDK calls (get_topic_interests, create_topic_interest, delete_topic_interest).
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

/** Crestwatch's path first, then upstream's earlier one. */
const INTEREST_PATHS = ['/api/user/interests', '/api/user/topic-interests'];

export async function interestRoutes(
  app: App,
  { interests }: { interests: InterestsService },
): Promise<void> {
  for (const path of INTEREST_PATHS) routesAt(app, path, interests);
}

function routesAt(app: App, path: string, interests: InterestsService): void {
  app.get(
    path,
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
    path,
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
    `${path}/:interest_id`,
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
