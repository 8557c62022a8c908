import {
  describeOutputFormat,
  type HistoryItemResponse,
  historyVoiceName,
  type OutputFormat,
  type VoiceResponse,
} from '@parla/contracts';

/**
 * The kinds of item the bottom player plays (history/voices §3 "Audio player item"), and a transcript's
 * audio (issue 19: the transcription page plays its recording here; its id is the transcription id), and
 * a conversation's recording (issue 28: the conversation page; its id is the conversation id), and a Studio
 * chapter's audio (issue 30: the Studio editor; its id is the chapter snapshot id).
 */
export const audioPlayerItemTypes = [
  'text-to-speech',
  'speech-to-speech',
  'speechHistoryItem',
  'voicePreview',
  'transcript',
  'conversation',
  'studio',
] as const;
export type AudioPlayerItemType = (typeof audioPlayerItemTypes)[number];

/** What the bar shows about the audio (history/voices §3: the item's `player`). */
export interface AudioPlayerDetails {
  title: string;
  /** The spoken text where there is one: shown under the title and read for the length estimate (§9). */
  description?: string;
  voice_id?: string;
  voice_name?: string;
  /** The length in milliseconds when the caller knows it (a history item's `duration_ms`); 0 or absent if not. */
  duration?: number;
  language?: string;
  languagePreviewUrls?: { language: string; previewUrl: string }[];
}

/** One thing to play in the bottom player (history/voices §3 "Audio player item"). */
export interface AudioPlayerItem {
  /**
   * For text-to-speech, speech-to-speech and speechHistoryItem: the history item id (may be empty for a
   * stream whose response names it in its `history-item-id` header). For a voicePreview: the voice id.
   */
  id: string;
  /** The name the Download button saves the audio under. */
  fileName: string;
  type: AudioPlayerItemType;
  /** True once the history item behind the audio is known to exist (§4: set by the player's polling). */
  loaded: boolean;
  player: AudioPlayerDetails;
  /** Start playing as soon as the audio is loaded; otherwise it waits for the play button. */
  autoStart?: boolean;
  /** With autoStart: how long to wait before starting. */
  autoStartDelaySeconds?: number;
  /** Anything the page wants back with the item; the player does not read it. */
  extra?: unknown;
}

/**
 * Where the audio comes from (history/voices §4: "a url or a stream"). A url is played directly, or, when
 * `authenticated`, fetched with the bearer token first. A stream is a fetch Response whose body is unread;
 * it plays while the body arrives.
 */
export type PlayerSource =
  | { kind: 'url'; url: string; authenticated?: boolean }
  | { kind: 'stream'; response: Response; mimeType?: string };

const historyTypes: ReadonlySet<AudioPlayerItemType> = new Set([
  'text-to-speech',
  'speech-to-speech',
  'speechHistoryItem',
]);

/** Whether the item is backed by a speech history item (the ones §4 polls for and downloads by id). */
export function isHistoryItemType(type: AudioPlayerItemType): boolean {
  return historyTypes.has(type);
}

/** The history item id of an item, or null for previews and for history items whose id is not known. */
export function getHistoryItemId(item: AudioPlayerItem): string | null {
  return isHistoryItemType(item.type) && item.id.trim() !== '' ? item.id : null;
}

/** What `play` takes: an item and where its audio comes from. Spread it into the call: `play(...playback)`. */
export type Playback = readonly [item: AudioPlayerItem, source: PlayerSource];

/**
 * A stored history item for the bottom player (history/voices §3, §4): played from its audio route with the
 * bearer token, starting at once. `fileName` is the name its Download button saves it under.
 */
export function historyItemPlayback(
  item: Pick<HistoryItemResponse, 'history_item_id' | 'voice_id' | 'voice_name' | 'text' | 'duration_ms'> &
    Partial<Pick<HistoryItemResponse, 'dialogue'>>,
  fileName: string,
): Playback {
  const voiceName = historyVoiceName(item);
  return [
    {
      id: item.history_item_id,
      fileName,
      type: 'speechHistoryItem',
      loaded: true,
      player: {
        title: voiceName,
        description: item.text,
        voice_id: item.voice_id,
        voice_name: voiceName,
        duration: item.duration_ms,
      },
      autoStart: true,
    },
    {
      kind: 'url',
      url: `/v1/history/${encodeURIComponent(item.history_item_id)}/audio`,
      authenticated: true,
    },
  ];
}

/** A generation whose audio has started to arrive: the unread response and the history item it will be. */
export interface StartedGeneration {
  response: Response;
  /** From the `history-item-id` header; absent with logging off. */
  historyItemId: string | null;
}

export interface GenerationDetails {
  /** The format the generation was asked for; the stream is played as its content type. */
  outputFormat: OutputFormat;
  fileName: string;
  title: string;
  /** What is spoken, shown under the title. */
  text: string;
  /** The voice shown with the item (the first line's, for a dialogue). */
  voice: Pick<VoiceResponse, 'voice_id' | 'name' | 'labels'> | undefined;
  /** What made it: text to speech (and dialogue) unless told; speech to speech for a conversion. */
  type?: 'text-to-speech' | 'speech-to-speech';
  /** The length in milliseconds when known beforehand (a conversion is as long as its input). */
  durationMs?: number | undefined;
}

/**
 * A new generation (text to speech, dialogue or speech to speech) for the bottom player (history/voices
 * §3, §4): played while its stream arrives, starting at once; not `loaded` until the player's polling finds
 * its history item.
 */
export function generationPlayback(
  started: StartedGeneration,
  { outputFormat, fileName, title, text, voice, type = 'text-to-speech', durationMs }: GenerationDetails,
): Playback {
  return [
    {
      id: started.historyItemId ?? '',
      fileName,
      type,
      loaded: false,
      player: {
        title,
        description: text,
        voice_id: voice?.voice_id,
        voice_name: voice?.name,
        language: voice?.labels.language,
        ...(durationMs !== undefined && { duration: durationMs }),
      },
      autoStart: true,
    },
    { kind: 'stream', response: started.response, mimeType: describeOutputFormat(outputFormat).contentType },
  ];
}
