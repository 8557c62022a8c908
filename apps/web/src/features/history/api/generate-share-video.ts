import { generateShareVideoRoute, type ShareVideoQuery, type ShareVideoResponse } from '@parla/contracts';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** The query of the video calls as sent: the theme and `strip_v3_tags` as "true" or "false". */
export type ShareVideoQueryInput = z.input<typeof ShareVideoQuery>;

/**
 * `POST /v1/history/{id}/video` (history/voices §3, §7): renders the item's share video (or finds the one
 * rendered before) and answers when it is ready.
 */
export function generateShareVideo(
  historyItemId: string,
  query: ShareVideoQueryInput,
  signal?: AbortSignal,
): Promise<ShareVideoResponse> {
  return apiRequest(generateShareVideoRoute, { params: { history_item_id: historyItemId }, query, signal });
}
