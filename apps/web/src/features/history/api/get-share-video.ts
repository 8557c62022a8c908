import { getShareVideoRoute } from '@parla/contracts';
import { apiFetch } from '../../../lib/api-client';
import type { ShareVideoQueryInput } from './generate-share-video';

/**
 * The rendered video (`video_url` of the render call) as a blob. The route needs the caller's token, which
 * the web app keeps in memory: a `<video src>` could not send it, so the video is fetched and played from
 * an object URL. It is read through its descriptor with the render call's own query rather than from
 * `video_url`, which carries the server's public URL (another origin behind a dev proxy).
 */
export async function getShareVideo(
  historyItemId: string,
  query: ShareVideoQueryInput,
  signal?: AbortSignal,
): Promise<Blob> {
  const response = await apiFetch(
    getShareVideoRoute,
    { params: { history_item_id: historyItemId }, query, signal },
    'video/mp4',
  );
  return response.blob();
}
