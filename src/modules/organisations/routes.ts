// /api/org: members and invites in upstream's shapes, plus inviting, revoking, accepting (public, with the
// one-time token), role changes and removals.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf } from '../../platform/audit.ts';
import { requirePrincipal } from '../../platform/auth.ts';
import { ApiError, badRequest } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { NoContent } from '../../platform/schemas.ts';
import { acceptedPage, acceptPage, failedPage, PAGE_CSP } from './pages.ts';
import {
  AcceptInviteBody,
  AcceptInviteResponse,
  AcceptQuery,
  ChangeRoleBody,
  CreateInviteBody,
  InviteIdParams,
  InviteListQuery,
  MemberIdParams,
  OrgInviteCreatedSchema,
  OrgInviteList,
  OrgMemberList,
  OrgMemberSchema,
} from './schemas.ts';
import { INVITE_TTL_DAYS, type OrganisationsService } from './service.ts';

const tags = ['organisation'];
const read = { access: { permission: 'read' as const } };
const write = { access: { permission: 'write' as const } };
const FORM_LIMIT = 16 * 1024;

const HtmlPage = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('Content-Security-Policy', PAGE_CSP)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

function isForm(request: FastifyRequest): boolean {
  return /^application\/x-www-form-urlencoded\b/i.test(String(request.headers['content-type'] ?? ''));
}

/** Browsers (Accept: text/html) get failures as a page with the same status; API clients get problem+json. */
function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/i.test(String(request.headers.accept ?? ''));
}

/** The accept page's form: fields as strings, an empty optional field left out, a repeated one a list. */
function parseForm(
  _request: FastifyRequest,
  body: string | Buffer,
  done: (err: Error | null, body?: unknown) => void,
): void {
  const text = body.toString();
  if (text.includes('\u0000') || /%00/i.test(text)) {
    done(badRequest('Form fields must not contain NUL characters.'));
    return;
  }
  const out = new Map<string, unknown>();
  for (const [key, value] of new URLSearchParams(text)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
      done(badRequest(`The form field ${key} is not accepted.`));
      return;
    }
    if (value === '' && key === 'full_name') continue;
    const prior = out.get(key);
    out.set(key, prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value]);
  }
  done(null, Object.fromEntries(out));
}

export async function organisationRoutes(
  app: App,
  { organisations }: { organisations: OrganisationsService },
): Promise<void> {
  app.get(
    '/api/org/members',
    {
      config: read,
      schema: {
        tags,
        summary: "Members of your organisation (upstream's get_organization_members)",
        description:
          'Every member of the caller’s organisation with their role; any member may read it. A bare array, ' +
          'as upstream answers.',
        response: { 200: OrgMemberList },
      },
    },
    async (request) => organisations.members(requirePrincipal(request).userId),
  );

  app.patch(
    '/api/org/members/:id',
    {
      config: write,
      schema: {
        tags,
        summary: "Change a member's role",
        description:
          'Owners and admins only (a member → 403 `org_admin_required`). An admin cannot change an owner’s ' +
          'role nor make anyone an owner (403 `owner_role_required`). The last owner cannot be demoted (409 ' +
          '`last_owner`). Another organisation’s membership id → 404. The member’s profile ' +
          '(`organization_role`) reflects the change on their next request. Audited on both accounts.',
        params: MemberIdParams,
        body: ChangeRoleBody,
        response: { 200: OrgMemberSchema },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      return organisations.changeRole(actorOf(principal, request.id), request.params.id, request.body.role);
    },
  );

  app.delete(
    '/api/org/members/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Remove a member, or leave',
        description:
          'Owners and admins remove members (an admin cannot remove an owner: 403); any member may remove ' +
          'their own membership, i.e. leave. The last owner can be neither removed nor leave (409 ' +
          '`last_owner`). A removed member’s API keys are revoked at once (their next request → 401) and ' +
          'their account is disabled; it moves to an organisation of its own, where an operator can ' +
          're-enable it (PATCH /api/admin/users/{id}). Their pending invites are revoked; their other ' +
          'resources stay theirs. Another organisation’s membership id → 404.',
        params: MemberIdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      await organisations.removeMember(actorOf(principal, request.id), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/org/invites',
    {
      config: read,
      schema: {
        tags,
        summary: "Your organisation's invites (upstream's get_organization_invites)",
        description:
          'Live pending invites by default (as upstream); `status` shows accepted, revoked or expired ' +
          'invites, or `all`. Tokens are never shown again. A bare array, newest first.',
        querystring: InviteListQuery,
        response: { 200: OrgInviteList },
      },
    },
    async (request) =>
      organisations.invites(requirePrincipal(request).userId, request.query.status ?? 'pending', {
        limit: request.query.limit ?? 100,
        offset: request.query.offset ?? 0,
      }),
  );

  app.post(
    '/api/org/invites',
    {
      config: write,
      schema: {
        tags,
        summary: 'Invite someone to your organisation',
        description:
          `Owners and admins only (a member → 403); only an owner may invite an \`owner\`. Returns the ` +
          `invite with its one-time \`token\` and \`accept_url\`, shown only in this response (Crestwatch ` +
          `keeps a SHA-256 of the token and sends no email: pass the link on). The invite expires after ` +
          `${INVITE_TTL_DAYS} days. 409 when the email already has a pending invite (\`invite_pending\`), ` +
          'is already a member (`already_member`) or already has a Crestwatch account elsewhere ' +
          '(`email_taken`: an account belongs to one organisation), or the organisation holds 100 pending ' +
          'invites. The one exception to `email_taken`: an account removed from (or that left) this ' +
          'organisation may be invited back while it is disabled and still stands alone in the ' +
          'organisation of its own it was moved to (not once an operator re-enabled it). Audited.',
        body: CreateInviteBody,
        response: { 201: OrgInviteCreatedSchema },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const created = await organisations.invite(actorOf(principal, request.id), request.body);
      return reply.code(201).header('Cache-Control', 'no-store').send(created);
    },
  );

  app.delete(
    '/api/org/invites/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Revoke an invite',
        description:
          'Owners and admins only. Its token stops working at once; revoking a revoked or expired invite ' +
          'is a no-op (204); an accepted invite → 409 (remove the member instead). Another organisation’s ' +
          'invite id → 404. Audited.',
        params: InviteIdParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      await organisations.revokeInvite(actorOf(principal, request.id), request.params.id);
      return reply.code(204).send(null);
    },
  );

  // The public accept routes: the invitee has no key yet. Limited per client IP like every public route.
  await app.register(async (instance) => {
    const scope = instance.withTypeProvider<TypeBoxTypeProvider>();
    // The page's form posts urlencoded; this scope alone parses it, every other route keeps answering 415.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      parseForm,
    );
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('Cache-Control', 'no-store');
      reply.header('Referrer-Policy', 'no-referrer');
      return payload;
    });

    scope.get(
      '/api/org/invites/accept',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'The page behind an invite’s accept_url',
          description:
            'Public. Checks the token and answers an HTML page saying who invited which email with which ' +
            'role, with a form that POSTs the token (and an optional name) to this path. Stores nothing. ' +
            'A wrong, used, revoked or expired token → 400 (a page saying why for browsers, ' +
            '`Accept: text/html`; problem+json otherwise).',
          querystring: AcceptQuery,
          response: { 200: HtmlPage('The accept page (text/html).') },
        },
      },
      async (request, reply) => {
        try {
          const summary = await organisations.inviteSummary(request.query.token);
          return sendPage(reply, 200, acceptPage(request.query.token, summary));
        } catch (error) {
          if (error instanceof ApiError && error.status === 400 && wantsHtml(request)) {
            return sendPage(reply, 400, failedPage(error.detail));
          }
          throw error;
        }
      },
    );

    scope.post(
      '/api/org/invites/accept',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Accept an invite',
          description:
            'Public (no key; limited per client IP). Uses up the one-time token and creates the invited ' +
            'account in the inviter’s organisation with the invited role, on the inviter’s plan (as it is ' +
            'now; later plan changes are per user), with a first API key (`read`, `write`) returned only ' +
            'here. An account removed from (or that left) that organisation, still disabled and standing ' +
            'alone, is brought back instead: moved in with the invited role and plan, enabled again, with a ' +
            'new first key (its old keys stay revoked, its resources stay its own). A wrong, used, revoked ' +
            'or expired token → 400 (`invite_invalid`, `invite_used`, `invite_revoked`, `invite_expired`) ' +
            'and nothing stored; an email that meanwhile got an account, or whose account no longer meets ' +
            'those conditions, → 409 `email_taken` (the invite stays pending). JSON answers JSON; the accept ' +
            'page’s form ' +
            '(`application/x-www-form-urlencoded`) gets an HTML page showing the key once (and, from a ' +
            'browser, failures as pages too).',
          consumes: ['application/json', 'application/x-www-form-urlencoded'],
          body: AcceptInviteBody,
          response: { 201: AcceptInviteResponse },
        },
      },
      async (request, reply) => {
        const form = isForm(request);
        try {
          const { rejoined, ...accepted } = await organisations.accept(request.body, request.id);
          if (!form) return reply.code(201).send(accepted);
          return sendPage(
            reply,
            201,
            acceptedPage({
              email: accepted.user.email,
              role: accepted.user.organization_role,
              apiKey: accepted.api_key.api_key,
              rejoined,
            }),
          );
        } catch (error) {
          if (form && wantsHtml(request) && error instanceof ApiError && error.status < 500) {
            return sendPage(reply, error.status, failedPage(error.detail));
          }
          throw error;
        }
      },
    );
  });
}
