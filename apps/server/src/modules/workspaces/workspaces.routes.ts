import {
  acceptWorkspaceInviteRoute,
  addWorkspaceGroupMemberRoute,
  createWorkspaceGroupRoute,
  declineWorkspaceInviteRoute,
  deleteWorkspaceGroupRoute,
  deleteWorkspaceInviteRoute,
  getWorkspaceAdminStatusRoute,
  getWorkspaceResourceRoute,
  getWorkspaceRoute,
  getWorkspaceSettingsAccessRoute,
  hasAdminRights,
  inviteWorkspaceMemberRoute,
  inviteWorkspaceMembersBulkRoute,
  listReceivedInvitesRoute,
  listUserWorkspacesRoute,
  listWorkspaceGroupsRoute,
  listWorkspaceInvitesRoute,
  listWorkspaceMembersRoute,
  removeWorkspaceGroupMemberRoute,
  removeWorkspaceMemberRoute,
  roleFromRequest,
  searchWorkspaceGroupsRoute,
  shareWorkspaceResourceRoute,
  switchWorkspaceRoute,
  transferWorkspaceOwnershipRoute,
  unshareWorkspaceResourceRoute,
  updateWorkspaceMemberRoute,
  updateWorkspaceSettingsRoute,
  type WorkspaceRole,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import {
  addGroupMember,
  createGroup,
  deleteGroup,
  listGroups,
  removeGroupMember,
  searchGroups,
} from './groups.service';
import {
  acceptInvite,
  declineInvite,
  deleteInvite,
  inviteMembers,
  listPendingInvites,
  listReceivedInvites,
} from './invites.service';
import {
  getWorkspaceSummary,
  listMembers,
  listUserWorkspaces,
  removeMember,
  switchWorkspace,
  transferOwnership,
  updateMember,
  updateWorkspaceSettings,
  type WorkspaceDeps,
} from './members.service';
import { getResourceMetadata, type SharingDeps, shareResource, unshareResource } from './sharing.service';

const ok = { status: 'ok' as const };

/** The role an invitation asks for: `role`, a seat type, or the deprecated permission naming one. */
function inviteRole(body: {
  role?: WorkspaceRole | undefined;
  seat_type?: 'workspace_admin' | 'workspace_member' | 'workspace_lite_member' | undefined;
  workspace_permission?: string | undefined;
}): WorkspaceRole {
  const permission = body.workspace_permission === 'workspace_admin' ? 'workspace_admin' : undefined;
  return roleFromRequest({ role: body.role, seat_type: body.seat_type ?? permission }) ?? 'member';
}

/**
 * accounts §1/§4/§6 and history/voices §7 "Workspace": members, invitations, groups, resource sharing,
 * ownership and settings. Administering members, invitations and groups is workspace business, not the
 * account's own security: an admin's API key may do it as a session may (the public API's client has only
 * keys), and the services check the admin rights either way. A signed-in session stays required to hand
 * over the ownership (the owner's protection against removal, which a leaked key must not give away), for
 * the settings (the session inactivity timeout is sign-in security) and for the caller's own membership
 * (answering an invitation, switching workspace).
 */
export async function workspaceRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const db = deps.database.db;
  const w: WorkspaceDeps = {
    db,
    events: deps.events,
    clock: deps.clock,
    mailer: deps.providers.mail,
    logger: deps.logger,
    publicUrl: deps.config.publicUrl,
    fields: deps.workspaceFields,
  };
  const sharing: SharingDeps = { db, kinds: deps.shareableKinds };
  const guarded = { onRequest: deps.auth.requireAuth };
  const session = { onRequest: deps.auth.requireSession };
  // Invitations send mail: a few per quarter-hour per client, so the calls cannot be used to send mail in bulk.
  const mailing = { ...guarded, config: { rateLimit: { max: 20, timeWindow: 15 * 60_000 } } };
  const caller = (request: Parameters<typeof principalOf>[0]) => {
    const { userId, workspaceId } = principalOf(request);
    return { userId, workspaceId };
  };

  registerRoute(
    app,
    getWorkspaceRoute,
    async ({ request }) => getWorkspaceSummary(w, caller(request)),
    guarded,
  );
  registerRoute(
    app,
    getWorkspaceAdminStatusRoute,
    // The guard read the caller's role when it checked their seat.
    async ({ request }) => ({ is_admin: hasAdminRights(principalOf(request).role) }),
    guarded,
  );
  registerRoute(
    app,
    getWorkspaceSettingsAccessRoute,
    async ({ request }) => ({ can_access_settings: hasAdminRights(principalOf(request).role) }),
    guarded,
  );
  registerRoute(
    app,
    updateWorkspaceSettingsRoute,
    async ({ request, body }) => updateWorkspaceSettings(w, caller(request), body),
    session,
  );

  registerRoute(
    app,
    listWorkspaceMembersRoute,
    async ({ request }) => listMembers(w, caller(request)),
    guarded,
  );
  registerRoute(
    app,
    updateWorkspaceMemberRoute,
    async ({ request, body }) => {
      await updateMember(w, caller(request), {
        email: body.email,
        role: roleFromRequest(body),
        isLocked: body.is_locked,
      });
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    removeWorkspaceMemberRoute,
    async ({ request, body }) => {
      await removeMember(w, caller(request), body.email);
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    transferWorkspaceOwnershipRoute,
    async ({ request, body }) => {
      await transferOwnership(w, caller(request), body.email);
      return ok;
    },
    session,
  );

  registerRoute(
    app,
    inviteWorkspaceMemberRoute,
    async ({ request, body }) => {
      await inviteMembers(w, caller(request), {
        emails: [body.email],
        role: inviteRole(body),
        groupIds: body.group_ids ?? [],
      });
      return ok;
    },
    mailing,
  );
  registerRoute(
    app,
    inviteWorkspaceMembersBulkRoute,
    async ({ request, body }) => {
      await inviteMembers(w, caller(request), {
        emails: body.emails,
        role: inviteRole(body),
        groupIds: body.group_ids ?? [],
      });
      return ok;
    },
    mailing,
  );
  registerRoute(
    app,
    deleteWorkspaceInviteRoute,
    async ({ request, body }) => {
      await deleteInvite(w, caller(request), body.email);
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    listWorkspaceInvitesRoute,
    async ({ request }) => ({ invites: await listPendingInvites(w, caller(request)) }),
    guarded,
  );
  registerRoute(
    app,
    listReceivedInvitesRoute,
    async ({ request }) => ({ invites: await listReceivedInvites(w, caller(request).userId) }),
    session,
  );
  registerRoute(
    app,
    acceptWorkspaceInviteRoute,
    async ({ request, body }) => ({
      status: 'ok' as const,
      workspace_id: await acceptInvite(w, caller(request).userId, body),
    }),
    session,
  );
  registerRoute(
    app,
    declineWorkspaceInviteRoute,
    async ({ request, body }) => {
      await declineInvite(w, caller(request).userId, body);
      return ok;
    },
    session,
  );
  registerRoute(
    app,
    listUserWorkspacesRoute,
    async ({ request }) => ({ workspaces: await listUserWorkspaces(db, caller(request)) }),
    guarded,
  );
  registerRoute(
    app,
    switchWorkspaceRoute,
    async ({ request, body }) => {
      await switchWorkspace(db, caller(request).userId, body.workspace_id);
      return ok;
    },
    session,
  );

  registerRoute(
    app,
    listWorkspaceGroupsRoute,
    async ({ request }) => listGroups(db, caller(request)),
    guarded,
  );
  registerRoute(
    app,
    searchWorkspaceGroupsRoute,
    async ({ request, query }) => searchGroups(db, caller(request), query.name),
    guarded,
  );
  registerRoute(
    app,
    createWorkspaceGroupRoute,
    async ({ request, body }) => createGroup(db, caller(request), body.name),
    guarded,
  );
  registerRoute(
    app,
    deleteWorkspaceGroupRoute,
    async ({ request, params }) => {
      await deleteGroup(db, caller(request), params.group_id);
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    addWorkspaceGroupMemberRoute,
    async ({ request, params, body }) => {
      await addGroupMember(db, caller(request), params.group_id, body.email);
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    removeWorkspaceGroupMemberRoute,
    async ({ request, params, body }) => {
      await removeGroupMember(db, caller(request), params.group_id, body.email);
      return ok;
    },
    guarded,
  );

  registerRoute(
    app,
    getWorkspaceResourceRoute,
    async ({ request, params, query }) =>
      getResourceMetadata(sharing, caller(request), query.resource_type, params.resource_id),
    guarded,
  );
  registerRoute(
    app,
    shareWorkspaceResourceRoute,
    async ({ request, params, body }) => {
      await shareResource(sharing, caller(request), {
        resourceId: params.resource_id,
        type: body.resource_type,
        role: body.role,
        user_email: body.user_email,
        group_id: body.group_id,
        workspace_api_key_id: body.workspace_api_key_id,
      });
      return ok;
    },
    guarded,
  );
  registerRoute(
    app,
    unshareWorkspaceResourceRoute,
    async ({ request, params, body }) => {
      await unshareResource(sharing, caller(request), {
        resourceId: params.resource_id,
        type: body.resource_type,
        user_email: body.user_email,
        group_id: body.group_id,
        workspace_api_key_id: body.workspace_api_key_id,
      });
      return ok;
    },
    guarded,
  );
}
