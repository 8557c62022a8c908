import { getHistoryItemRoute, type HistoryItemResponse } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `GET /v1/history/{id}`: one history item; a 404 (not stored yet) is an HttpError like any other. */
export function getHistoryItem(historyItemId: string, signal?: AbortSignal): Promise<HistoryItemResponse> {
  return apiRequest(getHistoryItemRoute, { params: { history_item_id: historyItemId }, signal });
}
