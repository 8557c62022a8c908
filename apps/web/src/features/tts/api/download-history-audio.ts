import { getHistoryItemAudioRoute } from '@parla/contracts';
import { apiFetch } from '../../../lib/api-client';

/** `GET /v1/history/{id}/audio`: the stored audio of a generation, as a Blob. */
export async function getHistoryAudio(historyItemId: string, signal?: AbortSignal): Promise<Blob> {
  const response = await apiFetch(getHistoryItemAudioRoute, {
    params: { history_item_id: historyItemId },
    signal,
  });
  return response.blob();
}
