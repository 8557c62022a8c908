import { higherRole, type ResourceRole, roleCovers } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import type { ShareableResourceType } from '../../platform/module';
import { listCallerGrants, type ResourceCaller } from './sharing.store';
import { getMemberRole, isWorkspaceAdmin } from './workspaces.store';

/**
 * The caller's role on one resource of their workspace (its row already read), or null for none: the rule
 * `holdsRole` (sharing.store) puts in SQL, for one resource.
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
