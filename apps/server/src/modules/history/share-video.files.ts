import type { Storage } from '../../platform/storage/storage';

/** Where a workspace's share videos and previews are kept. */
const workspaceFolder = (workspaceId: string) => `share-videos/${workspaceId}/`;

/** Where an item's share videos and previews are kept: one folder per item. */
export const itemFolder = (workspaceId: string, itemId: string) =>
  `${workspaceFolder(workspaceId)}${itemId}/`;

async function deleteFolder(storage: Storage, prefix: string): Promise<void> {
  const keys = await storage.list(prefix);
  await Promise.all(keys.map((key) => storage.delete(key)));
}

/** Removes every video and preview of an item (called when the item is deleted). */
export function deleteShareVideos(storage: Storage, workspaceId: string, itemId: string): Promise<void> {
  return deleteFolder(storage, itemFolder(workspaceId, itemId));
}

/** Removes every share video and preview of a workspace (called when the workspace is deleted). */
export function deleteWorkspaceShareVideos(storage: Storage, workspaceId: string): Promise<void> {
  return deleteFolder(storage, workspaceFolder(workspaceId));
}
