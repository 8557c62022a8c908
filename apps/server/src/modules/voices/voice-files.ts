import type { Db } from '../../platform/db/client';
import type { Storage } from '../../platform/storage/storage';
import { ownPreviewKey } from './voice-previews';
import { disableCopiesOfVoices, voiceIdsOfWorkspaces } from './voices.store';

/**
 * Before workspaces are deleted (their voices go by cascade): the copies other workspaces added of their
 * shared voices stop working (§5 copied_disabled), and the ids whose files must go are returned.
 */
export async function retireWorkspaceVoices(tx: Db, workspaceIds: readonly string[]): Promise<string[]> {
  if (workspaceIds.length === 0) return [];
  const ids = await voiceIdsOfWorkspaces(tx, workspaceIds);
  if (ids.length > 0) await disableCopiesOfVoices(tx, ids);
  return ids;
}

/** The files of a deleted workspace's voices: samples, verification documents, design previews, previews. */
export async function deleteWorkspaceVoiceFiles(
  storage: Storage,
  workspaceId: string,
  voiceIds: readonly string[],
): Promise<void> {
  const keys = [
    ...(await storage.list(`voices/${workspaceId}/`)),
    ...(await storage.list(`voice-design/${workspaceId}/`)),
    ...voiceIds.map(ownPreviewKey),
  ];
  for (const key of keys) await storage.delete(key);
}
