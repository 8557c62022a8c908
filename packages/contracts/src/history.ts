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
export type HistoryFeedback = z.infer<typeof HistoryFeedback>;

/** history/voices §3: the review status of feedback nobody has reviewed yet (other values not shown). */
export const FEEDBACK_NOT_REVIEWED = 'not_reviewed';

/** history/voices §5 "Feedback": text given must have at least this many characters. */
export const FEEDBACK_MIN_CHARACTERS = 20;
/** history/voices §5: positive feedback text holds at most this many characters ("n / 200"). */
export const POSITIVE_FEEDBACK_MAX_CHARACTERS = 200;
/** Negative feedback text (no limit shown in the spec): bounded so a request stays small. */
export const FEEDBACK_MAX_CHARACTERS = 2000;
/** history/voices §4: thumbs up opens the dialog only for an item whose text is at most this long. */
export const FEEDBACK_DIALOG_TEXT_LIMIT = 400;

/** The feedback messages of history/voices §5 and §8. */
export const feedbackMessages = {
  tooShort: `Feedback needs at least ${FEEDBACK_MIN_CHARACTERS} characters.`,
  tooLong: `Positive feedback holds at most ${POSITIVE_FEEDBACK_MAX_CHARACTERS} characters.`,
  reviewed: 'This feedback cannot be changed as it was already reviewed.',
  submitted: 'Your feedback has been submitted, thank you.',
} as const;

/** What is wrong with a feedback text (history/voices §5), or undefined: empty text is allowed. */
export function feedbackTextProblem(thumbsUp: boolean, text: string): string | undefined {
  const length = text.trim().length;
  if (length === 0) return undefined;
  if (length < FEEDBACK_MIN_CHARACTERS) return feedbackMessages.tooShort;
  if (thumbsUp && length > POSITIVE_FEEDBACK_MAX_CHARACTERS) return feedbackMessages.tooLong;
  return undefined;
}

/**
 * history/voices §4 "Feedback flow": the dialog opens for thumbs down, and for thumbs up when the item's
 * text is at most 400 characters; otherwise thumbs up is sent at once, with no text.
 */
export function feedbackOpensDialog(thumbsUp: boolean, itemText: string): boolean {
  return !thumbsUp || itemText.length <= FEEDBACK_DIALOG_TEXT_LIMIT;
}

/** `POST /v1/history/{id}/feedback` body (history/voices §7: the thumbs, a text, five booleans). */
export const HistoryFeedbackRequest = z
  .object({
    thumbs_up: z.boolean(),
    feedback: z.string().max(FEEDBACK_MAX_CHARACTERS).default(''),
    emotions: z.boolean().default(false),
    inaccurate_clone: z.boolean().default(false),
    glitches: z.boolean().default(false),
    audio_quality: z.boolean().default(false),
    other: z.boolean().default(false),
  })
  .superRefine((body, ctx) => {
    const problem = feedbackTextProblem(body.thumbs_up, body.feedback);
    if (problem) ctx.addIssue({ code: 'custom', path: ['feedback'], message: problem });
  })
  .meta({ id: 'HistoryFeedbackRequest' });
export type HistoryFeedbackRequest = z.infer<typeof HistoryFeedbackRequest>;

/** A line of a dialogue item (the public API's DialogueInputResponseModel: text, voice_id, voice_name). */
export const HistoryDialogueLine = z
  .object({ text: z.string(), voice_id: z.string(), voice_name: z.string() })
  .meta({ id: 'DialogueInputResponseModel' });
export type HistoryDialogueLine = z.infer<typeof HistoryDialogueLine>;

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
    /** The lines of a dialogue (the public API's DialogueInputResponseModel: text, voice_id, voice_name). */
    dialogue: z
      .array(z.object({ text: z.string(), voice_id: z.string(), voice_name: z.string() }))
      .nullable(),
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

/**
 * Feedback on an item (history/voices §4): given again it replaces the last, until the item has been
 * reviewed; answers the feedback as stored.
 */
export const submitHistoryFeedbackRoute = defineRoute({
  method: 'POST',
  path: '/v1/history/:history_item_id/feedback',
  summary: 'Rate a generated item',
  tags: ['history'],
  params: itemParams,
  body: HistoryFeedbackRequest,
  response: HistoryFeedback,
});

/** `DELETE /v1/history/{id}`: the item and its audio are gone (the public API's DeleteHistoryItemResponse). */
export const deleteHistoryItemRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/history/:history_item_id',
  summary: 'Delete a generated item and its audio',
  tags: ['history'],
  params: itemParams,
  response: z.object({ status: z.literal('ok') }),
});

/** At most this many items in one download (a zip of them is built in memory). */
export const HISTORY_DOWNLOAD_MAX_ITEMS = 100;

/**
 * At most this many bytes in one download (the files, WAV-decoded when asked): the files and the zip are
 * built in memory, so a request for hours of WAV is refused before anything is read.
 */
export const HISTORY_DOWNLOAD_MAX_BYTES = 200 * 1024 * 1024;

/** `POST /v1/history/download` body: `output_format` is "wav" (transcoded) or the items' own format. */
export const DownloadHistoryRequest = z
  .object({
    history_item_ids: z
      .array(z.string().min(1).max(100))
      .min(1, 'Name at least one history item.')
      .max(
        HISTORY_DOWNLOAD_MAX_ITEMS,
        `At most ${HISTORY_DOWNLOAD_MAX_ITEMS} items can be downloaded at once.`,
      ),
    output_format: z.enum(['wav', 'default']).nullish(),
  })
  .meta({ id: 'DownloadHistoryRequest' });
export type DownloadHistoryRequest = z.infer<typeof DownloadHistoryRequest>;

/** One item → its audio file; several → a zip of them (history/voices §7). */
export const downloadHistoryRoute = defineRoute({
  method: 'POST',
  path: '/v1/history/download',
  summary: 'Download one item’s audio, or several as a zip',
  tags: ['history'],
  body: DownloadHistoryRequest,
  response: z.any().meta({ description: 'audio/* for one item, application/zip for several' }),
});

/** history/voices §3 "Share-link response". */
export const ShareLinkResponse = z
  .object({
    /** An absolute URL of the public page that plays the item. */
    share_link: z.string(),
    /** The name shown on that page; null until the user sets one (the page then says "A Parla user"). */
    public_user_name: z.string().nullable(),
  })
  .meta({ id: 'ShareLinkResponse' });
export type ShareLinkResponse = z.infer<typeof ShareLinkResponse>;

/** Makes (once) and returns the public link of an item. */
export const getShareLinkRoute = defineRoute({
  method: 'GET',
  path: '/v1/history/:history_item_id/share-link',
  summary: 'The public share link of a generated item',
  tags: ['history'],
  params: itemParams,
  response: ShareLinkResponse,
});

/** The longest public name (the spec shows no validation; a bound keeps pages tidy). */
export const PUBLIC_USER_NAME_MAX_CHARACTERS = 60;

export const updatePublicUserNameRoute = defineRoute({
  method: 'POST',
  path: '/v1/user/update-public-user-name',
  summary: 'Set the name shown on the user’s share pages',
  tags: ['user'],
  body: z.object({ public_user_name: z.string().trim().max(PUBLIC_USER_NAME_MAX_CHARACTERS) }),
  response: z.object({ status: z.literal('ok'), public_user_name: z.string().nullable() }),
});

/** What a share page shows (no sign-in): the text, the voice, the sharer's public name and the audio. */
export const SharedItemResponse = z
  .object({
    share_link_id: z.string(),
    text: z.string(),
    voice_name: z.string(),
    public_user_name: z.string().nullable(),
    date_unix: z.number().int(),
    duration_ms: z.number().int(),
    content_type: z.string(),
    /** The lines of a dialogue with their voices' names (no voice ids on a public page). */
    dialogue: z.array(z.object({ text: z.string(), voice_name: z.string() })).nullable(),
  })
  .meta({ id: 'SharedItem' });
export type SharedItemResponse = z.infer<typeof SharedItemResponse>;

const shareParams = z.object({ share_link_id: z.string().max(100) });

/** Public: the item behind a share link; a deleted item answers 404. */
export const getSharedItemRoute = defineRoute({
  method: 'GET',
  path: '/v1/shared-history/:share_link_id',
  summary: 'A shared item (public, no sign-in)',
  tags: ['history'],
  params: shareParams,
  response: SharedItemResponse,
});

/** Public: the audio behind a share link. */
export const getSharedItemAudioRoute = defineRoute({
  method: 'GET',
  path: '/v1/shared-history/:share_link_id/audio',
  summary: 'The audio of a shared item (public, no sign-in)',
  tags: ['history'],
  params: shareParams,
  response: z.any().meta({ description: 'The audio, in the content type of the item' }),
});

/** The web page a share link opens. */
export const SHARE_PAGE_PATH = '/share/:share_link_id';
