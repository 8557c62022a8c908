import type { Storage } from '../../platform/storage/storage';

/** Where an item's share videos and previews are kept: one folder per item. */
export const itemFolder = (workspaceId: string, itemId: string) => `share-videos/${workspaceId}/${itemId}/`;

/** Removes every video and preview of an item (called when the item is deleted). */
export async function deleteShareVideos(
  storage: Storage,
  workspaceId: string,
  itemId: string,
): Promise<void> {
  const keys = await storage.list(itemFolder(workspaceId, itemId));
  await Promise.all(keys.map((key) => storage.delete(key)));
}
