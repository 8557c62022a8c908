import { z } from 'zod';
import { EmailAddress } from './auth';
import { PronunciationDictionaryLocator } from './pronunciation-dictionaries';
import { defineRoute } from './routes';

const Ok = z.object({ status: z.literal('ok') });

/**
 * accounts §1/§6 workspace roles. An editor's rights include an admin's, so both hold the admin rights
 * (members, invites, groups, settings); `member` is the plain seat, with neither.
 */
export const WORKSPACE_ROLES = ['admin', 'editor', 'member'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];
export const WorkspaceRoleSchema = z.enum(WORKSPACE_ROLES);

/** The public API's seat types (`workspace_lite_member` is accepted and seated as a member). */
export const SEAT_TYPES = ['workspace_admin', 'workspace_member', 'workspace_lite_member'] as const;
export type SeatType = (typeof SEAT_TYPES)[number];

export function hasAdminRights(role: WorkspaceRole | null | undefined): boolean {
  return role === 'admin' || role === 'editor';
}

export function seatTypeOf(role: WorkspaceRole): SeatType {
  return hasAdminRights(role) ? 'workspace_admin' : 'workspace_member';
}

/** The role a request names: Parla's `role` first, then the public API's seat type (or its deprecated twin). */
export function roleFromRequest(input: {
  role?: WorkspaceRole | undefined;
  seat_type?: SeatType | undefined;
  workspace_role?: SeatType | undefined;
  workspace_seat_type?: SeatType | undefined;
}): WorkspaceRole | undefined {
  if (input.role) return input.role;
  const seat = input.workspace_seat_type ?? input.seat_type ?? input.workspace_role;
  if (!seat) return undefined;
  return seat === 'workspace_admin' ? 'admin' : 'member';
}

/** accounts §3 Workspace.session_inactivity_timeout choices, in seconds (null: never). */
export const SESSION_INACTIVITY_TIMEOUTS = [900, 3600, 14_400, 28_800, 86_400, 604_800] as const;

export const WorkspaceSummary = z
  .object({
    workspace_id: z.string(),
    name: z.string(),
    owner_id: z.string(),
    is_owner: z.boolean(),
    role: WorkspaceRoleSchema,
    seat_type: z.enum(SEAT_TYPES),
    /** accounts §9: the plan's seats (the server's own value for trial and enterprise). */
    max_seats: z.number().int(),
    /** Members plus pending invites: every one holds a seat. */
    seats_used: z.number().int(),
    session_inactivity_timeout: z.number().int().nullable(),
    created_at_unix: z.number().int(),
    /** accounts §3 Workspace.speech_to_text_webhook_ids: the active webhooks told of transcriptions. */
    speech_to_text_webhook_ids: z.array(z.string()),
    /**
     * accounts §3 Workspace.pronunciation_dictionary_locators: the dictionaries a request uses when it names
     * none (set with `PUT /v1/workspace/pronunciation-dictionaries`).
     */
    pronunciation_dictionary_locators: z.array(PronunciationDictionaryLocator),
  })
  .meta({ id: 'WorkspaceSummary' });
export type WorkspaceSummary = z.infer<typeof WorkspaceSummary>;

export const getWorkspaceRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace',
  summary: 'The caller’s current workspace: name, owner, the caller’s role and the seats',
  tags: ['workspace'],
  response: WorkspaceSummary,
});

/** accounts §4/§6: admin status is its own read after sign-in. */
export const getWorkspaceAdminStatusRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/admin-status',
  summary: 'Whether the caller holds the admin rights of the workspace',
  tags: ['workspace'],
  response: z.object({ is_admin: z.boolean() }),
});

/** accounts §4/§6: workspace-settings access is a separate read from admin status. */
export const getWorkspaceSettingsAccessRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/settings-access',
  summary: 'Whether the caller may open and change the workspace settings',
  tags: ['workspace'],
  response: z.object({ can_access_settings: z.boolean() }),
});

export const updateWorkspaceSettingsRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/settings',
  summary: 'Rename the workspace or set its session inactivity timeout (admins)',
  tags: ['workspace'],
  body: z
    .object({
      name: z.string().trim().min(1, 'Enter a workspace name.').max(100),
      session_inactivity_timeout: z
        .number()
        .int()
        .refine((v) => (SESSION_INACTIVITY_TIMEOUTS as readonly number[]).includes(v), {
          message: `Choose one of ${SESSION_INACTIVITY_TIMEOUTS.join(', ')} seconds, or null for never.`,
        })
        .nullable(),
    })
    .partial()
    .strict(),
  response: WorkspaceSummary,
});

export const WorkspaceMember = z
  .object({
    user_id: z.string(),
    email: z.string(),
    first_name: z.string().nullish(),
    seat_type: z.enum(SEAT_TYPES),
    is_owner: z.boolean(),
    is_locked: z.boolean(),
    /** Parla: the role behind the seat type (an editor shows as workspace_admin). */
    role: WorkspaceRoleSchema,
    joined_at_unix: z.number().int(),
  })
  .meta({ id: 'WorkspaceMember' });
export type WorkspaceMember = z.infer<typeof WorkspaceMember>;

export const listWorkspaceMembersRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/members',
  summary: 'The workspace’s members, locked ones included',
  tags: ['workspace'],
  response: z.array(WorkspaceMember),
});

const SeatTypeSchema = z.enum(SEAT_TYPES);

export const updateWorkspaceMemberRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/members',
  summary: 'Change a member’s role or lock them (admins)',
  tags: ['workspace'],
  body: z.object({
    email: EmailAddress,
    is_locked: z.boolean().optional(),
    workspace_role: SeatTypeSchema.optional(),
    workspace_seat_type: SeatTypeSchema.optional(),
    allow_downgrade_to_basic_seat: z.boolean().optional(),
    role: WorkspaceRoleSchema.optional(),
  }),
  response: Ok,
});

export const removeWorkspaceMemberRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/members/remove',
  summary: 'Remove a member: their seat is freed and everything shared with them is unshared (admins)',
  tags: ['workspace'],
  body: z.object({ email: EmailAddress }),
  response: Ok,
});

export const transferWorkspaceOwnershipRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/transfer-ownership',
  summary: 'Make another member the owner (the owner only); the old owner stays an admin',
  tags: ['workspace'],
  body: z.object({ email: EmailAddress }),
  response: Ok,
});

const InviteFields = {
  seat_type: SeatTypeSchema.optional(),
  /** Deprecated in the public API; read as a seat type when it names one. */
  workspace_permission: z.string().max(100).optional(),
  group_ids: z.array(z.string().max(100)).max(50).optional(),
  usage_limit: z.number().int().min(0).nullish(),
  role: WorkspaceRoleSchema.optional(),
};

export const inviteWorkspaceMemberRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/invites/add',
  summary: 'Email an invitation to join the workspace (admins); it holds a seat until answered',
  tags: ['workspace'],
  body: z.object({ email: EmailAddress, ...InviteFields }),
  response: z.object({ status: z.literal('ok') }),
});

export const inviteWorkspaceMembersBulkRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/invites/add-bulk',
  summary: 'Email invitations to several addresses (admins); all or none',
  tags: ['workspace'],
  body: z.object({ emails: z.array(EmailAddress).min(1).max(50), ...InviteFields }),
  response: z.object({ status: z.literal('ok') }),
});

export const deleteWorkspaceInviteRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/workspace/invites',
  summary: 'Withdraw a pending invitation (admins); its link stops working',
  tags: ['workspace'],
  body: z.object({ email: EmailAddress }),
  response: Ok,
});

export const PendingInvite = z
  .object({
    invite_id: z.string(),
    email: z.string(),
    role: WorkspaceRoleSchema,
    seat_type: z.enum(SEAT_TYPES),
    created_at_unix: z.number().int(),
    expires_at_unix: z.number().int(),
  })
  .meta({ id: 'PendingInvite' });

export const listWorkspaceInvitesRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/invites',
  summary: 'The workspace’s pending invitations',
  tags: ['workspace'],
  response: z.object({ invites: z.array(PendingInvite) }),
});

export const ReceivedInvite = z
  .object({
    invite_id: z.string(),
    workspace_id: z.string(),
    workspace_name: z.string(),
    invited_by: z.string().nullable(),
    role: WorkspaceRoleSchema,
    expires_at_unix: z.number().int(),
  })
  .meta({ id: 'ReceivedInvite' });
export type ReceivedInvite = z.infer<typeof ReceivedInvite>;

export const listReceivedInvitesRoute = defineRoute({
  method: 'GET',
  path: '/v1/user/workspace-invites',
  summary: 'Pending invitations addressed to the caller’s verified email',
  tags: ['workspace'],
  response: z.object({ invites: z.array(ReceivedInvite) }),
});

/** The invite to answer: the code from the mailed link, or its id when it is addressed to the caller. */
const InviteAnswer = z
  .object({ invite_code: z.string().min(1).max(200), invite_id: z.string().min(1).max(100) })
  .partial()
  .refine((v) => Boolean(v.invite_code ?? v.invite_id), { message: 'Send invite_code or invite_id.' });

export const acceptWorkspaceInviteRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/workspace-invites/accept',
  summary: 'Join the inviting workspace and work in it (refresh the access token afterwards)',
  tags: ['workspace'],
  body: InviteAnswer,
  response: z.object({ status: z.literal('ok'), workspace_id: z.string() }),
});

export const declineWorkspaceInviteRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/workspace-invites/decline',
  summary: 'Decline an invitation; its seat is freed',
  tags: ['workspace'],
  body: InviteAnswer,
  response: Ok,
});

export const UserWorkspace = z.object({
  workspace_id: z.string(),
  name: z.string(),
  role: WorkspaceRoleSchema,
  is_owner: z.boolean(),
  is_current: z.boolean(),
});

export const listUserWorkspacesRoute = defineRoute({
  method: 'GET',
  path: '/v1/user/workspaces',
  summary: 'The workspaces the caller belongs to',
  tags: ['workspace'],
  response: z.object({ workspaces: z.array(UserWorkspace) }),
});

export const switchWorkspaceRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/switch-workspace',
  summary: 'Work in another of one’s workspaces (refresh the access token afterwards)',
  tags: ['workspace'],
  body: z.object({ workspace_id: z.string().min(1).max(100) }),
  response: Ok,
});

export const WorkspaceGroup = z
  .object({
    name: z.string(),
    id: z.string(),
    /** The members' emails. */
    members: z.array(z.string()),
    permissions: z.array(z.string()),
  })
  .meta({ id: 'WorkspaceGroup' });
export type WorkspaceGroup = z.infer<typeof WorkspaceGroup>;

export const listWorkspaceGroupsRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/groups',
  summary: 'The workspace’s groups by id',
  tags: ['workspace'],
  response: z.record(z.string(), WorkspaceGroup),
});

export const searchWorkspaceGroupsRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/groups/search',
  summary: 'Groups with this exact name',
  tags: ['workspace'],
  query: z.object({ name: z.string().trim().min(1).max(100) }),
  response: z.array(z.object({ name: z.string(), id: z.string(), members_emails: z.array(z.string()) })),
});

const GroupName = z.string().trim().min(1, 'Enter a group name.').max(100);

export const createWorkspaceGroupRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/groups',
  summary: 'Make a group (admins)',
  tags: ['workspace'],
  body: z.object({ name: GroupName }),
  response: WorkspaceGroup,
});

const GroupParams = z.object({ group_id: z.string().min(1).max(100) });

export const deleteWorkspaceGroupRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/workspace/groups/:group_id',
  summary: 'Delete a group; what was shared with it is unshared (admins)',
  tags: ['workspace'],
  params: GroupParams,
  response: Ok,
});

export const addWorkspaceGroupMemberRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/groups/:group_id/members',
  summary: 'Add a member of the workspace to a group (admins)',
  tags: ['workspace'],
  params: GroupParams,
  body: z.object({ email: EmailAddress }),
  response: Ok,
});

export const removeWorkspaceGroupMemberRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/groups/:group_id/members/remove',
  summary: 'Remove a member from a group (admins)',
  tags: ['workspace'],
  params: GroupParams,
  body: z.object({ email: EmailAddress }),
  response: Ok,
});

/** The resource kinds that exist to share (studio projects come with Studio). */
export const SHAREABLE_RESOURCE_TYPES = ['voice', 'history_item', 'transcript'] as const;
export const RESOURCE_ROLES = ['admin', 'editor', 'commenter', 'viewer'] as const;
export type ResourceRole = (typeof RESOURCE_ROLES)[number];

const RESOURCE_RANK: Record<ResourceRole, number> = { viewer: 1, commenter: 2, editor: 3, admin: 4 };

/** Whether `held` gives at least what `needed` gives. */
export function roleCovers(held: ResourceRole | null | undefined, needed: ResourceRole): boolean {
  return held ? RESOURCE_RANK[held] >= RESOURCE_RANK[needed] : false;
}

/** The higher of two roles. */
export function higherRole(a: ResourceRole | null, b: ResourceRole | null): ResourceRole | null {
  if (!a) return b;
  if (!b) return a;
  return RESOURCE_RANK[a] >= RESOURCE_RANK[b] ? a : b;
}

const ResourceType = z.enum(SHAREABLE_RESOURCE_TYPES, {
  error: `resource_type must be one of ${SHAREABLE_RESOURCE_TYPES.join(', ')}.`,
});
const ResourceParams = z.object({ resource_id: z.string().min(1).max(100) });

/** Exactly one target: a member's email, a group id ('default' = everyone in the workspace) or an API key id. */
const ShareTarget = {
  user_email: EmailAddress.optional(),
  group_id: z.string().min(1).max(100).optional(),
  workspace_api_key_id: z.string().min(1).max(100).optional(),
};
function oneTarget(v: { user_email?: string; group_id?: string; workspace_api_key_id?: string }): boolean {
  return [v.user_email, v.group_id, v.workspace_api_key_id].filter(Boolean).length === 1;
}
const ONE_TARGET = { message: 'Send exactly one of user_email, group_id or workspace_api_key_id.' };

export const ResourceMetadata = z
  .object({
    resource_id: z.string(),
    resource_name: z.string().nullish(),
    resource_type: ResourceType,
    creator_user_id: z.string().nullish(),
    /** Role → the user or group ids holding it ('default' for everyone in the workspace). */
    role_to_group_ids: z.record(z.string(), z.array(z.string())),
    /** Members and groups it is not shared with yet. */
    share_options: z.array(
      z.object({ name: z.string(), id: z.string(), type: z.enum(['user', 'group', 'key']) }),
    ),
    /** Parla: the caller's own role on it. */
    your_role: z.enum(RESOURCE_ROLES),
  })
  .meta({ id: 'ResourceMetadata' });
export type ResourceMetadata = z.infer<typeof ResourceMetadata>;

export const getWorkspaceResourceRoute = defineRoute({
  method: 'GET',
  path: '/v1/workspace/resources/:resource_id',
  summary: 'Who a resource is shared with',
  tags: ['workspace'],
  params: ResourceParams,
  query: z.object({ resource_type: ResourceType }),
  response: ResourceMetadata,
});

export const shareWorkspaceResourceRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/resources/:resource_id/share',
  summary: 'Grant a role on a resource to a member, a group or everyone (needs admin on the resource)',
  tags: ['workspace'],
  params: ResourceParams,
  body: z
    .object({ role: z.enum(RESOURCE_ROLES), resource_type: ResourceType, ...ShareTarget })
    .refine(oneTarget, ONE_TARGET),
  response: Ok,
});

export const unshareWorkspaceResourceRoute = defineRoute({
  method: 'POST',
  path: '/v1/workspace/resources/:resource_id/unshare',
  summary: 'Take a role on a resource away (never from its creator)',
  tags: ['workspace'],
  params: ResourceParams,
  body: z.object({ resource_type: ResourceType, ...ShareTarget }).refine(oneTarget, ONE_TARGET),
  response: Ok,
});
