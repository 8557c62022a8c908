import { findSttLanguage } from '@parla/contracts';
import { AUDIO_UPLOAD_EXTENSIONS, formatMegabytes, isAudioUpload } from '../../lib/audio-upload-types';
import {
  type MultichannelTranscript,
  TRANSCRIPTION_MAX_UPLOAD_BYTES,
  type TranscriptChunk,
  type TranscriptListItem,
  type TranscriptResponse,
} from './api/types';

/** history/voices §9: the speech-to-text languages (contracts; English is the built-in model's only one). */
export { STT_LANGUAGES, type SttLanguage } from '@parla/contracts';

/** The name of a language code (ISO 639-3 or 639-1, any case), or the code itself when unknown. */
export function sttLanguageName(code: string | null | undefined): string | null {
  if (!code) return null;
  return findSttLanguage(code)?.name ?? code;
}

/** history/voices §5 "Uploads": the video types, by extension (3gpp files are named .3gp). */
const VIDEO_EXTENSIONS: ReadonlySet<string> = new Set([
  'mp4',
  'm4v',
  'avi',
  'mkv',
  'mov',
  'qt',
  'wmv',
  'flv',
  'webm',
  'mpeg',
  'mpg',
  '3gp',
  '3gpp',
]);

/** The same video types by MIME type. */
const VIDEO_MIME_TYPES: ReadonlySet<string> = new Set([
  'video/mp4',
  'video/x-msvideo',
  'video/avi',
  'video/x-matroska',
  'video/quicktime',
  'video/x-ms-wmv',
  'video/x-flv',
  'video/webm',
  'video/mpeg',
  'video/3gpp',
]);

/** Whether a file is one of the §5 video types, by MIME type or extension. */
export function isVideoUpload(file: { name: string; type: string }): boolean {
  const mime = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = file.name.includes('.') ? (file.name.split('.').pop()?.toLowerCase() ?? '') : '';
  return VIDEO_MIME_TYPES.has(mime) || VIDEO_EXTENSIONS.has(extension);
}

/** The `accept` attribute of the page's file input: every §5 audio and video type. */
export const TRANSCRIPTION_UPLOAD_ACCEPT = [
  ...AUDIO_UPLOAD_EXTENSIONS.map((extension) => `.${extension}`),
  ...[...VIDEO_EXTENSIONS].map((extension) => `.${extension}`),
  'audio/*',
  ...VIDEO_MIME_TYPES,
].join(',');

/** The types as the page lists them. */
export const TRANSCRIPTION_UPLOAD_TYPES_TEXT =
  'audio (MP3, WAV, M4A, OGG, OPUS, FLAC, AAC, AIFF, WEBM) or video (MP4, MOV, MKV, AVI, WEBM, WMV, FLV, MPEG, 3GP)';

/**
 * Why a chosen file cannot be transcribed, or null when it can be sent: a §5 audio or video type, not
 * empty, at most 1 GB. The server checks the content again; this only spares an upload that must fail.
 */
export function checkTranscriptionFile(file: { name: string; type: string; size: number }): string | null {
  if (!isAudioUpload(file) && !isVideoUpload(file))
    return `${file.name} is not an audio or video file we can transcribe. Choose ${TRANSCRIPTION_UPLOAD_TYPES_TEXT}.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > TRANSCRIPTION_MAX_UPLOAD_BYTES)
    return `${file.name} is ${formatMegabytes(file.size)}; files of at most 1 GB can be transcribed.`;
  return null;
}

/** A transcript's default title: the file name without its extension. */
export function transcriptNameOf(fileName: string): string {
  const base = fileName.replace(/\.[^.]+$/, '').trim();
  return (base || fileName || 'Transcript').slice(0, 200);
}

/** Whether any transcript of the list is still being made (the list is then polled). */
export function anyProcessing(items: readonly Pick<TranscriptListItem, 'status'>[]): boolean {
  return items.some((item) => item.status === 'processing');
}

/** How often the list is polled while a transcript is processing (issue 19: every 1–2 s). */
export const TRANSCRIPT_POLL_MS = 1500;

/** Seconds as `m:ss`, or `h:mm:ss` from an hour (a transcript's timestamps). */
export function formatTimestamp(seconds: number | null | undefined): string {
  const whole = Number.isFinite(seconds) && (seconds ?? 0) > 0 ? Math.floor(seconds as number) : 0;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** A word of the transcript as the view shows it: words and sounds, in order, with their speaker. */
export interface ViewWord {
  /** Position among the view's words. */
  index: number;
  text: string;
  kind: 'word' | 'audio_event';
  /** Seconds; null when the transcript was made without timestamps. */
  start: number | null;
  end: number | null;
  /** The speaker (`speaker_0`…), the channel's speaker for multichannel audio, or null. */
  speakerId: string | null;
}

/** A run of words of one speaker: what the view shows as a paragraph. */
export interface Paragraph {
  /** The index of its first word. */
  first: number;
  /** The index of its last word. */
  last: number;
  speakerId: string | null;
  start: number | null;
}

/** A pause this long (seconds) after the end of a sentence starts a new paragraph of the same speaker. */
const paragraphPauseSeconds = 1.2;
/** A paragraph this long (words) ends at the next sentence end. */
const paragraphMaxWords = 90;

function isMultichannel(transcript: TranscriptResponse): transcript is MultichannelTranscript {
  return 'transcripts' in transcript;
}

/** The chunks of a transcript: one, or one per channel. */
export function transcriptChunks(transcript: TranscriptResponse): TranscriptChunk[] {
  return isMultichannel(transcript) ? transcript.transcripts : [transcript];
}

/**
 * The view's words: the words and sounds of the transcript (spaces dropped), in time order across
 * channels; a channel's words without a speaker are given the channel as speaker (`channel_1`).
 */
export function toViewWords(transcript: TranscriptResponse): ViewWord[] {
  const chunks = transcriptChunks(transcript);
  const multi = chunks.length > 1;
  const words = chunks.flatMap((chunk, chunkIndex) =>
    chunk.words
      .filter((word) => word.type !== 'spacing' && word.text.trim() !== '')
      .map((word) => ({
        text: word.text.trim(),
        kind: word.type === 'audio_event' ? ('audio_event' as const) : ('word' as const),
        start: typeof word.start === 'number' ? word.start : null,
        end: typeof word.end === 'number' ? word.end : null,
        speakerId:
          word.speaker_id ??
          (multi ? `channel_${word.channel_index ?? chunk.channel_index ?? chunkIndex}` : null),
      })),
  );
  if (multi) words.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  return words.map((word, index) => ({ ...word, index }));
}

const sentenceEnd = /[.!?…]["')\]]*$/;

/** The view's paragraphs: a new one when the speaker changes, or after a sentence and a pause, or a long run. */
export function groupParagraphs(words: readonly ViewWord[]): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let current: Paragraph | null = null;
  for (const word of words) {
    const previous = current ? words[current.last] : undefined;
    const pause =
      previous?.end !== null && previous?.end !== undefined && word.start !== null
        ? word.start - previous.end
        : 0;
    const afterSentence = previous !== undefined && sentenceEnd.test(previous.text);
    const long = current !== null && current.last - current.first + 1 >= paragraphMaxWords;
    if (
      current === null ||
      word.speakerId !== current.speakerId ||
      (afterSentence && (pause >= paragraphPauseSeconds || long))
    ) {
      current = { first: word.index, last: word.index, speakerId: word.speakerId, start: word.start };
      paragraphs.push(current);
    } else {
      current.last = word.index;
    }
  }
  return paragraphs;
}

/** Whether the transcript has times to follow and seek to. */
export function hasTimestamps(words: readonly ViewWord[]): boolean {
  return words.some((word) => word.start !== null);
}

/**
 * The word being spoken at `time` (seconds): the last word started by then, unless the speech has paused
 * past its end (then none, so a long silence highlights nothing). -1 when none.
 */
export function findWordAt(words: readonly ViewWord[], time: number): number {
  let low = 0;
  let high = words.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const start = words[middle]?.start;
    if (start === null || start === undefined || start <= time) {
      if (start !== null && start !== undefined) found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  if (found === -1) return -1;
  const word = words[found];
  const end = word?.end ?? word?.start ?? 0;
  return time <= end + 0.75 ? found : -1;
}

/** A match of the search: the indices of its first and last word. */
export interface SearchMatch {
  first: number;
  last: number;
}

/** A word for matching: lower case, letters and digits only (punctuation and accents set aside). */
function normalise(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}']+/gu, '');
}

/**
 * Where the words of `query` occur in the transcript, in order: one word anywhere inside a word; several
 * as consecutive words (the first ending, the last starting, those between equal). Case, accents and
 * punctuation do not matter.
 */
export function searchTranscript(words: readonly ViewWord[], query: string): SearchMatch[] {
  const parts = query.split(/\s+/).map(normalise).filter(Boolean);
  if (parts.length === 0) return [];
  const texts = words.map((word) => normalise(word.text));
  const matches: SearchMatch[] = [];
  const lastPart = parts.length - 1;
  for (let i = 0; i + lastPart < texts.length; i += 1) {
    if (parts.length === 1) {
      if (texts[i]?.includes(parts[0] as string)) matches.push({ first: i, last: i });
      continue;
    }
    const fits = parts.every((part, offset) => {
      const text = texts[i + offset] ?? '';
      if (offset === 0) return text.endsWith(part) && text !== '';
      if (offset === lastPart) return text.startsWith(part);
      return text === part;
    });
    if (fits) matches.push({ first: i, last: i + lastPart });
  }
  return matches;
}

/** The default name of a speaker: `speaker_0` → "Speaker 1", `channel_1` → "Channel 2". */
export function defaultSpeakerName(speakerId: string): string {
  const speaker = /^speaker_(\d+)$/.exec(speakerId);
  if (speaker) return `Speaker ${Number(speaker[1]) + 1}`;
  const channel = /^channel_(\d+)$/.exec(speakerId);
  if (channel) return `Channel ${Number(channel[1]) + 1}`;
  return speakerId;
}

/** A speaker's name: the one given on the page, or the default. */
export function speakerName(speakerId: string, names: Readonly<Record<string, string>>): string {
  return names[speakerId]?.trim() || defaultSpeakerName(speakerId);
}

/** Whether a speaker can be given a name: one told apart by diarization (`speaker_0`…), not a channel. */
export function isRenameableSpeaker(speakerId: string): boolean {
  return /^speaker_\d{1,2}$/.test(speakerId);
}

/** The speakers of a transcript in order of first appearance. */
export function listSpeakers(words: readonly ViewWord[]): string[] {
  const seen = new Set<string>();
  for (const word of words) if (word.speakerId) seen.add(word.speakerId);
  return [...seen];
}

/** Colours of speakers, by order of appearance; text and dot readable in light and dark. */
export const SPEAKER_COLOURS = [
  { text: 'text-sky-700 dark:text-sky-300', dot: 'bg-sky-500' },
  { text: 'text-amber-700 dark:text-amber-300', dot: 'bg-amber-500' },
  { text: 'text-emerald-700 dark:text-emerald-300', dot: 'bg-emerald-500' },
  { text: 'text-rose-700 dark:text-rose-300', dot: 'bg-rose-500' },
  { text: 'text-violet-700 dark:text-violet-300', dot: 'bg-violet-500' },
  { text: 'text-teal-700 dark:text-teal-300', dot: 'bg-teal-500' },
  { text: 'text-orange-700 dark:text-orange-300', dot: 'bg-orange-500' },
  { text: 'text-fuchsia-700 dark:text-fuchsia-300', dot: 'bg-fuchsia-500' },
] as const;

/** The colour of the speaker at `position` in order of appearance (repeating after eight). */
export function speakerColour(position: number): (typeof SPEAKER_COLOURS)[number] {
  return (
    SPEAKER_COLOURS[
      ((position % SPEAKER_COLOURS.length) + SPEAKER_COLOURS.length) % SPEAKER_COLOURS.length
    ] ?? SPEAKER_COLOURS[0]
  );
}

/** The transcript as plain text (Copy): a paragraph a line, with speakers' names and times when known. */
export function transcriptPlainText(
  words: readonly ViewWord[],
  paragraphs: readonly Paragraph[],
  names: Readonly<Record<string, string>>,
): string {
  return paragraphs
    .map((paragraph) => {
      const text = words
        .slice(paragraph.first, paragraph.last + 1)
        .map((word) => (word.kind === 'audio_event' ? `(${word.text.replace(/^\(|\)$/g, '')})` : word.text))
        .join(' ');
      const speaker = paragraph.speakerId ? `${speakerName(paragraph.speakerId, names)}: ` : '';
      const time = paragraph.start !== null ? `[${formatTimestamp(paragraph.start)}] ` : '';
      return `${time}${speaker}${text}`;
    })
    .join('\n\n');
}

/** How a transcript's state reads in the list. */
export function describeTranscriptStatus(item: Pick<TranscriptListItem, 'status' | 'progress'>): string {
  if (item.status === 'completed') return 'Ready';
  if (item.status === 'failed') return 'Failed';
  return `Transcribing · ${Math.round(Math.min(1, Math.max(0, item.progress)) * 100)}%`;
}
