import {
  type HistoryFeedback,
  type HistoryFeedbackRequest,
  submitHistoryFeedbackRoute,
} from '@parla/contracts';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type FeedbackInput = z.input<typeof HistoryFeedbackRequest>;

/** `POST /v1/history/{id}/feedback` (history/voices §7): rates a generation; answers the feedback kept. */
export function submitFeedback(historyItemId: string, body: FeedbackInput): Promise<HistoryFeedback> {
  return apiRequest(submitHistoryFeedbackRoute, { params: { history_item_id: historyItemId }, body });
}
