import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import type { ShareableKind, SharedResource } from '../../platform/module';
import { getHistoryItem } from './history.store';

/** How long a history item's text may be to name it in the sharing dialog. */
const NAME_LENGTH = 60;

/** A history item of the workspace as sharing reads it (named by its text), or undefined. */
async function findSharedItem(db: Db, workspaceId: string, id: string): Promise<SharedResource | undefined> {
  const row = await getHistoryItem(db, workspaceId, id);
  if (!row) return undefined;
  const name = row.text.length > NAME_LENGTH ? `${row.text.slice(0, NAME_LENGTH)}…` : row.text;
  return { id: row.id, workspaceId: row.workspaceId, creatorId: row.userId, name };
}

/** Generations are shared between a workspace's members (history/voices §7). */
export const historyItemShareable: ShareableKind = {
  kind: 'history_item',
  find: findSharedItem,
  notFound: (id) => new AppError('resource_not_found', `History item ${id} not found.`),
};
