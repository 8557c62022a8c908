import type { HistoryItemResponse } from '@parla/contracts';
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
