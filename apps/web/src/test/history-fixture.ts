import { type HistoryItemResponse, HistoryItemResponse as HistoryItemSchema } from '@parla/contracts';

/** A complete, contract-valid speech history item for tests; `overrides` change any field. */
export function makeHistoryItem(overrides: Partial<HistoryItemResponse> = {}): HistoryItemResponse {
  return HistoryItemSchema.parse({
    history_item_id: 'h1',
    request_id: null,
    voice_id: 'v1',
    model_id: 'eleven_multilingual_v2',
    voice_name: 'Rachel',
    voice_category: 'premade',
    text: 'Hello from the history.',
    date_unix: 1_750_000_000,
    character_count_change_from: 0,
    character_count_change_to: 23,
    content_type: 'audio/mpeg',
    state: 'created',
    settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
    feedback: null,
    share_link_id: null,
    source: 'TTS',
    alignments: null,
    dialogue: null,
    output_format: 'mp3_44100_128',
    duration_ms: 1800,
    ...overrides,
  });
}
