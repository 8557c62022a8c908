import type { Storage } from '../../platform/storage/storage';
import { ownPreviewKey } from './voice-previews';

/** The files of a deleted workspace's voices: samples, verification documents, previews. */
export async function deleteWorkspaceVoiceFiles(
  storage: Storage,
  workspaceId: string,
  voiceIds: readonly string[],
): Promise<void> {
  const keys = [...(await storage.list(`voices/${workspaceId}/`)), ...voiceIds.map(ownPreviewKey)];
  for (const key of keys) await storage.delete(key);
}
