import { higherRole, RESOURCE_ROLES, type ResourceRole, roleCovers } from '@parla/contracts';
import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import type { ShareableResourceType } from '../../platform/module';
import { listCallerGrants } from './sharing.store';
import { getMemberRole, isWorkspaceAdmin } from './workspaces.store';
import { resourceShares, workspaceGroupMembers, workspaceMembers } from './workspaces.tables';

/** Who asks: a member acting in a workspace. */
export interface ResourceCaller {
  userId: string;
  workspaceId: string;
}

/**
 * The rule of workspace resources (voices, history items) as a condition on the resource's own table: a
 * resource belongs to its workspace and its creator. Its creator holds admin on it; others hold what was
 * shared with them, their groups, or the whole workspace (`default`); a resource whose creator left is
 * the workspace admins'. Members see nothing else — not even that it exists (404).
 */
export function holdsRole(
  type: ShareableResourceType,
  columns: { id: AnyPgColumn; workspaceId: AnyPgColumn; creatorId: AnyPgColumn },
  caller: ResourceCaller,
  needed: ResourceRole = 'viewer',
): SQL {
  const enough = RESOURCE_ROLES.filter((role) => roleCovers(role, needed));
  const sharedWithCaller = sql`exists (
    select 1 from ${resourceShares}
    where ${resourceShares.resourceType} = ${type}
      and ${resourceShares.resourceId} = ${columns.id}
      and ${resourceShares.workspaceId} = ${caller.workspaceId}
      and ${inArray(resourceShares.role, enough)}
      and (
        (${resourceShares.principalType} = 'user' and ${resourceShares.principalId} = ${caller.userId})
        or (${resourceShares.principalType} = 'default' and ${resourceShares.principalId} = ${caller.workspaceId})
        or (${resourceShares.principalType} = 'group' and ${resourceShares.principalId} in (
          select ${workspaceGroupMembers.groupId} from ${workspaceGroupMembers}
          where ${workspaceGroupMembers.userId} = ${caller.userId})))
  )`;
  // Whoever made it left the workspace (or the account is gone): it is the admins' now.
  const creatorGone = sql`(${columns.creatorId} is null or not exists (
    select 1 from ${workspaceMembers} as creator
    where creator.workspace_id = ${caller.workspaceId} and creator.user_id = ${columns.creatorId}))`;
  const orphanForAdmins = sql`(${creatorGone} and exists (
    select 1 from ${workspaceMembers}
    where ${workspaceMembers.workspaceId} = ${caller.workspaceId}
      and ${workspaceMembers.userId} = ${caller.userId}
      and ${workspaceMembers.role} in ('admin', 'editor')))`;
  return and(
    eq(columns.workspaceId, caller.workspaceId),
    or(eq(columns.creatorId, caller.userId), orphanForAdmins, sharedWithCaller),
  ) as SQL;
}

/**
 * The caller's role on one resource of their workspace (its row already read), or null for none: the rule
 * `holdsRole` puts in SQL, for one resource.
 */
export async function callerRoleOn(
  db: Db,
  caller: ResourceCaller,
  type: ShareableResourceType,
  resource: { id: string; workspaceId: string; creatorId: string | null },
): Promise<ResourceRole | null> {
  if (resource.workspaceId !== caller.workspaceId) return null;
  if (resource.creatorId === caller.userId) return 'admin';
  const creatorGone =
    resource.creatorId === null || !(await getMemberRole(db, caller.workspaceId, resource.creatorId));
  if (creatorGone && (await isWorkspaceAdmin(db, caller.workspaceId, caller.userId))) return 'admin';
  const grants = await listCallerGrants(db, caller, type, resource.id);
  return grants.reduce<ResourceRole | null>((best, role) => higherRole(best, role), null);
}

/**
 * The refusal for a caller whose role on a resource they can see is below what the action needs (403),
 * or undefined when the role is enough. A caller who cannot see it at all gets the resource's own 404
 * from its lookup.
 */
export function roleProblem(
  type: ShareableResourceType,
  held: ResourceRole | null,
  needed: ResourceRole,
): AppError | undefined {
  if (roleCovers(held, needed)) return undefined;
  // The kind in words is its wire name: `history_item` is a "history item".
  const kind = type.replaceAll('_', ' ');
  return new AppError(
    'forbidden',
    `This ${kind} was shared with you as ${held ?? 'nothing'}; this needs ${needed} access. Ask its owner.`,
  );
}

export function assertRole(
  type: ShareableResourceType,
  held: ResourceRole | null,
  needed: ResourceRole,
): void {
  const problem = roleProblem(type, held, needed);
  if (problem) throw problem;
}
