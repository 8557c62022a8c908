import { z } from 'zod';
import { defineRoute } from './routes';

/** Where a history item came from (the public API's sources; Parla writes TTS and STS). */
export const HISTORY_SOURCES = ['TTS', 'STS'] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

const Alignment = z.object({
  characters: z.array(z.string()),
  character_start_times_seconds: z.array(z.number()),
  character_end_times_seconds: z.array(z.number()),
});

/** Feedback on a history item (history/voices §3); null until the user gives some. */
export const HistoryFeedback = z
  .object({
    thumbs_up: z.boolean(),
    feedback: z.string(),
    emotions: z.boolean(),
    inaccurate_clone: z.boolean(),
    glitches: z.boolean(),
    audio_quality: z.boolean(),
    other: z.boolean(),
    review_status: z.string(),
  })
  .meta({ id: 'HistoryFeedback' });

/** A speech history item (history/voices §3; the public API's SpeechHistoryItemResponse). */
export const HistoryItemResponse = z
  .object({
    history_item_id: z.string(),
    request_id: z.string().nullable(),
    voice_id: z.string(),
    model_id: z.string(),
    voice_name: z.string(),
    voice_category: z.enum(['premade', 'cloned', 'generated', 'professional']),
    text: z.string(),
    date_unix: z.number().int(),
    character_count_change_from: z.number().int(),
    character_count_change_to: z.number().int(),
    content_type: z.string(),
    state: z.literal('created'),
    settings: z.record(z.string(), z.unknown()),
    feedback: HistoryFeedback.nullable(),
    share_link_id: z.string().nullable(),
    source: z.enum(HISTORY_SOURCES),
    alignments: z
      .object({ alignment: Alignment, normalized_alignment: Alignment })
      .nullable()
      .meta({ description: 'Character times of the audio, as written and as spoken' }),
    dialogue: z.array(z.object({ text: z.string(), voice_id: z.string() })).nullable(),
    output_format: z.string(),
    /** Parla: the length of the audio, for players that show it before loading the file. */
    duration_ms: z.number().int(),
  })
  .meta({ id: 'SpeechHistoryItem' });
export type HistoryItemResponse = z.infer<typeof HistoryItemResponse>;

/** `GET /v1/history` query (history/voices §7; the public API's parameters). */
export const ListHistoryQuery = z.object({
  /** How many items a page holds; the public API allows up to 1000. */
  page_size: z.coerce.number().int().min(1).max(1000).default(100),
  /** Continue after this item (the `last_history_item_id` of the previous page). */
  start_after_history_item_id: z.string().max(100).optional(),
  voice_id: z.string().max(100).optional(),
  model_id: z.string().max(100).optional(),
  /** Items whose text contains these words. */
  search: z.string().max(200).optional(),
  source: z.enum(HISTORY_SOURCES).optional(),
  date_before_unix: z.coerce.number().int().optional(),
  date_after_unix: z.coerce.number().int().optional(),
  sort_direction: z.enum(['desc', 'asc']).default('desc'),
});
export type ListHistoryQuery = z.infer<typeof ListHistoryQuery>;

export const ListHistoryResponse = z
  .object({
    history: z.array(HistoryItemResponse),
    last_history_item_id: z.string().nullable(),
    has_more: z.boolean(),
    scanned_until: z.number().int().nullable(),
  })
  .meta({ id: 'GetSpeechHistoryResponse' });
export type ListHistoryResponse = z.infer<typeof ListHistoryResponse>;

const itemParams = z.object({ history_item_id: z.string().max(100) });

export const listHistoryRoute = defineRoute({
  method: 'GET',
  path: '/v1/history',
  summary: 'Generated items, newest first, a page at a time',
  tags: ['history'],
  query: ListHistoryQuery,
  response: ListHistoryResponse,
});

export const getHistoryItemRoute = defineRoute({
  method: 'GET',
  path: '/v1/history/:history_item_id',
  summary: 'One generated item',
  tags: ['history'],
  params: itemParams,
  response: HistoryItemResponse,
});

/** The audio of an item, in the format it was generated in (its `content_type`). */
export const getHistoryItemAudioRoute = defineRoute({
  method: 'GET',
  path: '/v1/history/:history_item_id/audio',
  summary: 'The audio of a generated item',
  tags: ['history'],
  params: itemParams,
  response: z.any().meta({ description: 'The audio, in the content type of the item' }),
});
