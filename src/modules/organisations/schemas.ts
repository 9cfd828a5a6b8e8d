// Request and response schemas of the organisation routes (upstream's OrgMember and OrgInvite, plus what a
// team needs beside them).
import Type from 'typebox';
import { DateTime, IdParam, Nullable, StrictObject } from '../../platform/schemas.ts';
import { ApiKeyCreateResponseSchema, UserProfileSchema } from '../accounts/index.ts';
import { INVITE_STATUSES, INVITE_TTL_DAYS, MAX_PENDING_INVITES, ORGANISATION_ROLES } from './service.ts';

const RoleSchema = Type.Enum([...ORGANISATION_ROLES], {
  description:
    '`owner` (everything, including granting `owner`), `admin` (invites, roles and removals of admins and ' +
    'members), `member` (reads the member and invite lists; may leave).',
});

export const OrgMemberSchema = Type.Object(
  {
    id: Type.Integer({ description: 'The membership id (used by PATCH/DELETE /api/org/members/{id}).' }),
    email: Type.String(),
    full_name: Nullable(Type.String()),
    role: RoleSchema,
    joined_at: Nullable(DateTime()),
    user_id: Type.Integer({ description: "The member's user id (`id` of their UserProfile)." }),
  },
  { $id: 'OrgMember', title: 'OrgMember' },
);

export const OrgMemberList = Type.Array(OrgMemberSchema, {
  description: 'A bare array (as upstream answers), oldest membership first.',
});

const OrgInviteProperties = {
  id: Type.Integer(),
  email: Type.String({ description: 'Lower-cased.' }),
  role: RoleSchema,
  invited_by_email: Nullable(Type.String({ description: 'Who sent the invite.' })),
  status: Type.Enum([...INVITE_STATUSES], {
    description: 'A pending invite past `expires_at` reads as `expired`.',
  }),
  created_at: DateTime(),
  expires_at: DateTime({ description: `${INVITE_TTL_DAYS} days after \`created_at\`.` }),
};

const OrgInviteSchema = Type.Object(OrgInviteProperties, { $id: 'OrgInvite', title: 'OrgInvite' });

export const OrgInviteList = Type.Array(OrgInviteSchema, {
  description: 'A bare array (as upstream answers), newest first.',
});

export const OrgInviteCreatedSchema = Type.Object(
  {
    ...OrgInviteProperties,
    token: Type.String({
      description:
        'The one-time token (`cwi_` + 40 characters). Shown only in this response: Crestwatch keeps its ' +
        'SHA-256 alone. Pass it (or `accept_url`) to the invitee; Crestwatch sends no email.',
    }),
    accept_url: Type.String({
      format: 'uri',
      description:
        '`PUBLIC_BASE_URL` + `/api/org/invites/accept?token=…`: a page where the invitee accepts in a browser.',
    }),
  },
  { title: 'OrgInviteCreated' },
);

export const InviteListQuery = StrictObject({
  status: Type.Optional(
    Type.Enum([...INVITE_STATUSES, 'all'], {
      default: 'pending',
      description:
        'Which invites: `pending` (default, as upstream: live invites only), `accepted`, `revoked`, ' +
        '`expired`, or `all` (the history).',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 100,
      description: `Page size (1–100, default 100: an organisation holds at most ${MAX_PENDING_INVITES} pending invites, so the default list is complete).`,
    }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});

export const CreateInviteBody = StrictObject({
  email: Type.String({ format: 'email', maxLength: 320 }),
  role: RoleSchema,
});

export const ChangeRoleBody = StrictObject({ role: RoleSchema });

export const AcceptInviteBody = StrictObject({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the invite.' }),
  full_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
});

export const AcceptQuery = StrictObject({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the invite.' }),
});

export const AcceptInviteResponse = Type.Object(
  {
    user: UserProfileSchema,
    api_key: ApiKeyCreateResponseSchema,
  },
  { title: 'OrgInviteAccepted' },
);

export const InviteIdParams = IdParam('id', 'The invite id.');
export const MemberIdParams = IdParam('id', 'The membership id (OrgMember `id`).');
