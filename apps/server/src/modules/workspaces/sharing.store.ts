import type { ResourceRole } from '@parla/contracts';
import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import type { ShareableResourceType } from '../../platform/module';
import type { ResourceCaller } from './resource-access';
import { resourceShares, workspaceGroupMembers } from './workspaces.tables';

export type ResourceShareRow = typeof resourceShares.$inferSelect;

/** Whom a share names, as stored: a member, a group of this workspace, or `default` (everyone). */
export interface SharePrincipal {
  type: 'user' | 'group' | 'default';
  id: string;
}

/** The shares that name the caller: theirs, their groups' and the whole workspace's. */
function namesCaller(db: Db, caller: ResourceCaller): SQL {
  return or(
    and(eq(resourceShares.principalType, 'user'), eq(resourceShares.principalId, caller.userId)),
    and(eq(resourceShares.principalType, 'default'), eq(resourceShares.principalId, caller.workspaceId)),
    and(
      eq(resourceShares.principalType, 'group'),
      inArray(
        resourceShares.principalId,
        db
          .select({ id: workspaceGroupMembers.groupId })
          .from(workspaceGroupMembers)
          .where(eq(workspaceGroupMembers.userId, caller.userId)),
      ),
    ),
  ) as SQL;
}

/** The roles shared on one resource with the caller, their groups or the whole workspace. */
export async function listCallerGrants(
  db: Db,
  caller: ResourceCaller,
  type: ShareableResourceType,
  resourceId: string,
): Promise<ResourceRole[]> {
  const grants = await db
    .select({ role: resourceShares.role })
    .from(resourceShares)
    .where(
      and(
        eq(resourceShares.resourceType, type),
        eq(resourceShares.resourceId, resourceId),
        eq(resourceShares.workspaceId, caller.workspaceId),
        namesCaller(db, caller),
      ),
    );
  return grants.map((grant) => grant.role);
}

/** Every share of one resource. */
export async function listShares(
  db: Db,
  type: ShareableResourceType,
  resourceId: string,
): Promise<ResourceShareRow[]> {
  return db
    .select()
    .from(resourceShares)
    .where(and(eq(resourceShares.resourceType, type), eq(resourceShares.resourceId, resourceId)));
}

/** Grants a role on a resource to a principal, or changes the role it holds. */
export async function upsertShare(
  db: Db,
  share: {
    workspaceId: string;
    type: ShareableResourceType;
    resourceId: string;
    principal: SharePrincipal;
    role: ResourceRole;
  },
): Promise<void> {
  await db
    .insert(resourceShares)
    .values({
      workspaceId: share.workspaceId,
      resourceType: share.type,
      resourceId: share.resourceId,
      principalType: share.principal.type,
      principalId: share.principal.id,
      role: share.role,
    })
    .onConflictDoUpdate({
      target: [
        resourceShares.resourceType,
        resourceShares.resourceId,
        resourceShares.principalType,
        resourceShares.principalId,
      ],
      set: { role: share.role },
    });
}

/** Takes back what a resource was shared with one principal. */
export async function deleteShare(
  db: Db,
  share: { type: ShareableResourceType; resourceId: string; principal: SharePrincipal },
): Promise<void> {
  await db
    .delete(resourceShares)
    .where(
      and(
        eq(resourceShares.resourceType, share.type),
        eq(resourceShares.resourceId, share.resourceId),
        eq(resourceShares.principalType, share.principal.type),
        eq(resourceShares.principalId, share.principal.id),
      ),
    );
}

/** Drops what a deleted resource was shared with. */
export async function deleteResourceShares(
  db: Db,
  type: ShareableResourceType,
  resourceId: string,
): Promise<void> {
  await db
    .delete(resourceShares)
    .where(and(eq(resourceShares.resourceType, type), eq(resourceShares.resourceId, resourceId)));
}

/** Drops everything shared with a member in a workspace (they left it). */
export async function forgetMemberShares(db: Db, workspaceId: string, userId: string): Promise<void> {
  await db
    .delete(resourceShares)
    .where(
      and(
        eq(resourceShares.workspaceId, workspaceId),
        eq(resourceShares.principalType, 'user'),
        eq(resourceShares.principalId, userId),
      ),
    );
}

/** Drops everything shared with a group (it is being deleted). */
export async function forgetGroupShares(db: Db, groupId: string): Promise<void> {
  await db
    .delete(resourceShares)
    .where(and(eq(resourceShares.principalType, 'group'), eq(resourceShares.principalId, groupId)));
}
