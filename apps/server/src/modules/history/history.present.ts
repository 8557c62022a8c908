import {
  buildPath,
  getShareVideoRoute,
  type HistoryItemResponse,
  type ListHistoryResponse,
  SHARE_PAGE_PATH,
  type SharedItemResponse,
  type ShareLinkResponse,
  type ShareVideoQuery,
  type ShareVideoResponse,
} from '@parla/contracts';
import type { HistoryItemRow } from './history.tables';

const VOICE_CATEGORIES = ['premade', 'cloned', 'generated', 'professional'] as const;

/** A history row as the public API's SpeechHistoryItemResponse (history/voices §3). */
export function toHistoryItemResponse(row: HistoryItemRow): HistoryItemResponse {
  const category = VOICE_CATEGORIES.find((c) => c === row.voiceCategory) ?? 'premade';
  return {
    history_item_id: row.id,
    request_id: row.requestId,
    voice_id: row.voiceId,
    model_id: row.modelId,
    voice_name: row.voiceName,
    voice_category: category,
    text: row.text,
    date_unix: Math.floor(row.createdAt.getTime() / 1000),
    character_count_change_from: row.characterCountChangeFrom,
    character_count_change_to: row.characterCountChangeTo,
    content_type: row.contentType,
    state: 'created',
    settings: row.settings,
    feedback: row.feedback ?? null,
    share_link_id: row.shareLinkId,
    source: row.source,
    alignments: (row.alignment as HistoryItemResponse['alignments']) ?? null,
    dialogue: row.dialogue ?? null,
    output_format: row.outputFormat,
    duration_ms: row.durationMs,
  };
}

/** A page of history (history/voices §3 "Get generated items"). */
export function toHistoryPage(page: { rows: HistoryItemRow[]; hasMore: boolean }): ListHistoryResponse {
  const last = page.rows.at(-1);
  return {
    history: page.rows.map(toHistoryItemResponse),
    last_history_item_id: last?.id ?? null,
    has_more: page.hasMore,
    scanned_until: last ? Math.floor(last.createdAt.getTime() / 1000) : null,
  };
}

/** An item's public link (history/voices §3 "Share-link response"): an absolute URL of the share page. */
export function toShareLinkResponse(
  publicUrl: string,
  shareLinkId: string,
  publicUserName: string | null,
): ShareLinkResponse {
  return {
    share_link: `${publicUrl}${SHARE_PAGE_PATH.replace(':share_link_id', shareLinkId)}`,
    public_user_name: publicUserName,
  };
}

/** What a public share page shows of an item (history/voices §2 share link). */
export function toSharedItemResponse(
  shareLinkId: string,
  shared: { row: HistoryItemRow; publicUserName: string | null },
): SharedItemResponse {
  const { row } = shared;
  return {
    share_link_id: shareLinkId,
    text: row.text,
    voice_name: row.voiceName,
    public_user_name: shared.publicUserName,
    date_unix: Math.floor(row.createdAt.getTime() / 1000),
    duration_ms: row.durationMs,
    content_type: row.contentType,
    // Voice names only: a voice id of one's own is not for the public.
    dialogue: row.dialogue?.map((line) => ({ text: line.text, voice_name: line.voice_name })) ?? null,
  };
}

/** A rendered share video's answer: its absolute URL, the `GET` of the render call's path and query. */
export function toShareVideoResponse(
  publicUrl: string,
  itemId: string,
  query: ShareVideoQuery,
): ShareVideoResponse {
  const search = new URLSearchParams({ theme: query.theme, strip_v3_tags: String(query.strip_v3_tags) });
  return {
    video_url: `${publicUrl}${buildPath(getShareVideoRoute.path, { history_item_id: itemId })}?${search}`,
  };
}
