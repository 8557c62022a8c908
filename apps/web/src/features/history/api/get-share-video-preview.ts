import { getShareVideoPreviewRoute } from '@parla/contracts';
import { apiFetch } from '../../../lib/api-client';
import type { ShareVideoQueryInput } from './generate-share-video';

/** `GET /v1/history/{id}/video/preview` (history/voices §3): a still of the video in a theme, a PNG blob. */
export async function getShareVideoPreview(
  historyItemId: string,
  query: ShareVideoQueryInput,
  signal?: AbortSignal,
): Promise<Blob> {
  const response = await apiFetch(
    getShareVideoPreviewRoute,
    { params: { history_item_id: historyItemId }, query, signal },
    'image/png',
  );
  return response.blob();
}
