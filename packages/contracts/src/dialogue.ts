import { z } from 'zod';
import { defineRoute } from './routes';
import { AudioWithTimestampsResponse, TextToSpeechBody, TextToSpeechQuery } from './tts';

/** history/voices §9 "Dialogue and models": a dialogue holds at most 50 lines. */
export const DIALOGUE_MAX_LINES = 50;

/** The public API's limit on the different voices of one dialogue (BodyTextToDialogue… `inputs`). */
export const DIALOGUE_MAX_VOICES = 10;

/**
 * The public API's default dialogue model. It reads [bracketed] audio tags; its 3000 characters (the
 * constant of history/voices §9) bound the sum of the lines' texts.
 */
export const DEFAULT_DIALOGUE_MODEL_ID = 'eleven_v3';

/** The silence between two lines, in ms: a short natural pause at each change of turn. */
export const DIALOGUE_LINE_PAUSE_MS = 250;

/** history/voices §3 "Dialogue line": one turn, as the editor keeps it and the history item lists it. */
export const DialogueLine = z.object({ text: z.string(), voice_id: z.string() }).meta({ id: 'DialogueLine' });
export type DialogueLine = z.infer<typeof DialogueLine>;

/** One line of a text-to-dialogue request (the public API's DialogueInput): something to say. */
export const DialogueInput = z
  .object({
    text: z.string().refine((t) => t.trim().length > 0, 'The text is empty.'),
    voice_id: z.string().min(1).max(100),
  })
  .meta({ id: 'DialogueInput' });

/** The public API's ToDialogueSettings. */
export const DialogueSettings = z
  .object({
    /** Lower is livelier, higher steadier (as voice settings' stability). */
    stability: z.number().min(0).max(1).nullish(),
    /** How far own voices move to their profile (as voice settings' similarity_boost). */
    similarity: z.number().min(0).max(1).nullish(),
  })
  .meta({ id: 'DialogueSettings' });

/** The query of every text-to-dialogue call. */
export const TextToDialogueQuery = TextToSpeechQuery.pick({ output_format: true, enable_logging: true });

/** The body of every text-to-dialogue call (the public API's BodyTextToDialogue…). */
export const TextToDialogueBody = z
  .object({
    inputs: z
      .array(DialogueInput)
      .min(1, 'A dialogue needs at least one line.')
      .max(DIALOGUE_MAX_LINES, `A dialogue holds at most ${DIALOGUE_MAX_LINES} lines.`)
      .refine(
        (inputs) => new Set(inputs.map((i) => i.voice_id)).size <= DIALOGUE_MAX_VOICES,
        `A dialogue uses at most ${DIALOGUE_MAX_VOICES} different voices.`,
      ),
    model_id: z.string().max(100).default(DEFAULT_DIALOGUE_MODEL_ID),
    language_code: z.string().max(16).nullish(),
    settings: DialogueSettings.nullish(),
    pronunciation_dictionary_locators: TextToSpeechBody.shape.pronunciation_dictionary_locators,
    seed: TextToSpeechBody.shape.seed,
    apply_text_normalization: TextToSpeechBody.shape.apply_text_normalization,
    use_pvc_as_ivc: z.boolean().nullish(),
    /** Accepted for compatibility (request stitching); not used by Parla's engines. */
    previous_text: z.string().max(100).nullish(),
    future_text: z.string().max(100).nullish(),
    previous_request_ids: z.array(z.string()).max(3).nullish(),
    next_request_ids: z.array(z.string()).max(3).nullish(),
  })
  .meta({ id: 'TextToDialogueBody' });
export type TextToDialogueBody = z.infer<typeof TextToDialogueBody>;

/** Where one line sits in the audio and in the alignment's characters (the public API's VoiceSegment). */
export const VoiceSegment = z
  .object({
    voice_id: z.string(),
    start_time_seconds: z.number(),
    end_time_seconds: z.number(),
    /** Index in `alignment.characters` of the line's first character. */
    character_start_index: z.number().int(),
    /** Index in `alignment.characters` just past the line's last character. */
    character_end_index: z.number().int(),
    /** The line's index in `inputs`. */
    dialogue_input_index: z.number().int(),
  })
  .meta({ id: 'VoiceSegment' });
export type VoiceSegment = z.infer<typeof VoiceSegment>;

/**
 * The public API's AudioWithTimestampsAndVoiceSegmentsResponseModel. The alignment is of the lines joined
 * by "\n" (the history item's text); each "\n" spans the pause between two lines.
 */
export const AudioWithTimestampsAndVoiceSegmentsResponse = AudioWithTimestampsResponse.extend({
  voice_segments: z.array(VoiceSegment),
}).meta({ id: 'AudioWithTimestampsAndVoiceSegmentsResponse' });
export type AudioWithTimestampsAndVoiceSegmentsResponse = z.infer<
  typeof AudioWithTimestampsAndVoiceSegmentsResponse
>;

/** The audio of the whole dialogue; its content type follows `output_format`. */
export const textToDialogueRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-dialogue',
  summary: 'Speech of a dialogue: several lines, each in its own voice, as one audio file',
  tags: ['text-to-dialogue'],
  query: TextToDialogueQuery,
  body: TextToDialogueBody,
  response: z.any().meta({ description: 'The audio, in the content type of output_format' }),
});

/** The audio, sent line by line as each is spoken (chunked). */
export const textToDialogueStreamRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-dialogue/stream',
  summary: 'Speech of a dialogue, streamed line by line',
  tags: ['text-to-dialogue'],
  query: TextToDialogueQuery,
  body: TextToDialogueBody,
  response: z.any().meta({ description: 'Chunked audio, in the content type of output_format' }),
});

export const textToDialogueWithTimestampsRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-dialogue/with-timestamps',
  summary: 'Speech of a dialogue, with the time of every character and of every line',
  tags: ['text-to-dialogue'],
  query: TextToDialogueQuery,
  body: TextToDialogueBody,
  response: AudioWithTimestampsAndVoiceSegmentsResponse,
});

/** One JSON object per line of the dialogue: its audio (base64), its characters' times and its segment. */
export const textToDialogueStreamWithTimestampsRoute = defineRoute({
  method: 'POST',
  path: '/v1/text-to-dialogue/stream/with-timestamps',
  summary: 'Speech of a dialogue, streamed as JSON lines with the time of every character and line',
  tags: ['text-to-dialogue'],
  query: TextToDialogueQuery,
  body: TextToDialogueBody,
  response: z.any().meta({
    description: 'Newline-delimited AudioWithTimestampsAndVoiceSegmentsResponse chunks, one per line',
  }),
});

/**
 * The lines kept in local storage (history/voices §3 "Dialogue line", §5 "Dialogue", §8 "a local-storage
 * parse failure yields an empty dialogue"): the value must be JSON, a list of objects whose `text` and
 * `voice_id` are strings; anything else gives no lines (never an exception). Lines whose text is empty or
 * only whitespace are dropped, then the first 50 are kept. Other fields of a line are left out.
 */
export function parseStoredDialogue(raw: string | null): DialogueLine[] {
  if (raw === null) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  const parsed = z.array(DialogueLine).safeParse(value);
  if (!parsed.success) return [];
  return parsed.data
    .filter((line) => line.text.trim() !== '')
    .slice(0, DIALOGUE_MAX_LINES)
    .map(({ text, voice_id }) => ({ text, voice_id }));
}

/** A line break: it ends any bracket group that is still open. */
const isLineBreak = (c: string | undefined) => c === '\n' || c === '\r';

/**
 * The bracketed tags of a text, in order, as [start, end) offsets. A tag is a balanced bracket group on one
 * line: it opens at a "[", takes any brackets nested in it, and ends at the "]" that balances that first
 * "["; a line break ("\n" or "\r") before that "]" means the "[" opens no tag (`[a\nb]` is text). The scan
 * then goes on after the tag, or at the next character after a "[" that opened none, so `[a [b]` holds the
 * tag `[b]`. (The server reads v3 audio tags with the same rule.)
 */
export function findBracketedTags(text: string): { start: number; end: number }[] {
  const tags: { start: number; end: number }[] = [];
  let i = 0;
  while (i < text.length) {
    const end = text[i] === '[' ? closingBracket(text, i) : undefined;
    if (end === undefined) {
      i += 1;
      continue;
    }
    tags.push({ start: i, end });
    i = end;
  }
  return tags;
}

function closingBracket(text: string, from: number): number | undefined {
  let depth = 0;
  for (let i = from; i < text.length; i += 1) {
    const c = text[i];
    if (isLineBreak(c)) return undefined;
    if (c === '[') depth += 1;
    else if (c === ']') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

/** history/voices §5: the keep-tags toggle of the share-video dialog shows only for a text with a tag. */
export function hasBracketedTag(text: string): boolean {
  return findBracketedTags(text).length > 0;
}

/** Whitespace that is not a line break. */
const SPACE_RUN_START = /^[^\S\n\r]+/;
const SPACE_RUN_END = /[^\S\n\r]+$/;
const ONLY_SPACE = /^[^\S\n\r]+$/;

/**
 * history/voices §5 "Bracketed audio tags are normalised by collapsing surrounding whitespace. Nested
 * brackets are preserved. Newlines split brackets." Precisely, for each tag of findBracketedTags():
 *
 * - inside the tag, every run of whitespace becomes one space, and a space right after any "[" or right
 *   before any "]" of the tag is removed: `[  soft   laugh ]` → `[soft laugh]`, and a nested group stays in
 *   place with the same rule, `[ a [ b ] c ]` → `[a [b] c]`;
 * - the run of whitespace other than line breaks right before the tag, and the one right after it, each
 *   become one space (`Hi   [laughs]\tthere` → `Hi [laughs] there`); two tags with only such whitespace
 *   between them are one space apart; a line break stays, with the runs beside it collapsed;
 * - everything else is left exactly as it is. A text without a tag (without "[", or whose brackets close
 *   on another line, `[a\nb]`) comes back unchanged.
 *
 * The result has the same tags (only whitespace changes), so normalising twice changes nothing more.
 */
export function normalizeAudioTags(text: string): string {
  const tags = findBracketedTags(text);
  if (tags.length === 0) return text;
  let out = '';
  let at = 0;
  tags.forEach((tag, index) => {
    out += collapseGap(text.slice(at, tag.start), index > 0, true);
    out += normalizeTag(text.slice(tag.start, tag.end));
    at = tag.end;
  });
  return out + collapseGap(text.slice(at), true, false);
}

/** The text between tags: the whitespace runs touching a tag become one space. */
function collapseGap(gap: string, tagBefore: boolean, tagAfter: boolean): string {
  if (ONLY_SPACE.test(gap)) return ' ';
  let collapsed = gap;
  if (tagBefore) collapsed = collapsed.replace(SPACE_RUN_START, ' ');
  if (tagAfter) collapsed = collapsed.replace(SPACE_RUN_END, ' ');
  return collapsed;
}

function normalizeTag(tag: string): string {
  return tag.replace(/\s+/g, ' ').replace(/\[ /g, '[').replace(/ \]/g, ']');
}
