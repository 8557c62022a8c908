import type { Storage } from '../../platform/storage/storage';

/** Where a workspace's generated audio is kept. */
const workspaceAudioFolder = (workspaceId: string) => `history/${workspaceId}/`;

/** The key of a history item's audio. */
export const historyAudioKey = (workspaceId: string, itemId: string, extension: string) =>
  `${workspaceAudioFolder(workspaceId)}${itemId}.${extension}`;

/** Removes every history item's audio of a workspace (called when the workspace is deleted). */
export async function deleteWorkspaceHistoryAudio(storage: Storage, workspaceId: string): Promise<void> {
  for (const key of await storage.list(workspaceAudioFolder(workspaceId))) await storage.delete(key);
}
