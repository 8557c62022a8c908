import type {
  MultichannelSpeechToText,
  SpeechToTextChunk,
  SpeechToTextWord,
  WireTranscript,
} from '@parla/contracts';
import type { FileTranscription } from '../../providers/stt/stt-provider';

/*
 * The public API's transcript from what the recogniser heard (issue 19 item 1): `words` holds the words in
 * order with a `spacing` entry between two words (the gap's time, text " "), and `audio_event` entries only
 * where the provider really detected a sound; `text` is the entries' texts joined, as the public API's is.
 */

/** Rounds a time to milliseconds (the recogniser's frames are coarser; floating noise is not sent). */
const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

export interface ChunkOptions {
  timestamps: 'none' | 'word' | 'character';
  /** Keep the detected audio events (`tag_audio_events`). */
  audioEvents: boolean;
  /** Set on every entry and on the chunk (multichannel forms). */
  channelIndex?: number;
}

/** A word or event before spacings are put between them. */
type Entry = Omit<SpeechToTextWord, 'logprob'>;

/** The words of one transcription (one channel), in order, without spacings. */
function entriesOf(heard: FileTranscription, options: ChunkOptions): Entry[] {
  const entries: Entry[] = [];
  for (const segment of heard.segments) {
    const speaker = segment.speaker ? { speaker_id: segment.speaker } : {};
    if (options.timestamps !== 'none' && segment.words.length > 0) {
      for (const word of segment.words) {
        entries.push({
          text: word.text,
          start: ms(word.start),
          end: ms(Math.max(word.start, word.end)),
          type: 'word',
          ...speaker,
          ...(options.timestamps === 'character' && word.characters
            ? {
                characters: word.characters.map((c) => ({
                  text: c.text,
                  start: ms(c.start),
                  end: ms(c.end),
                })),
              }
            : {}),
        });
      }
    } else {
      // No word times asked for (or none given): the segment's words, all at the segment's time.
      for (const text of segment.text.split(/\s+/).filter(Boolean)) {
        entries.push({ text, start: ms(segment.start), end: ms(segment.end), type: 'word', ...speaker });
      }
    }
  }
  if (options.audioEvents) {
    for (const event of heard.events) {
      entries.push({
        text: `(${event.label})`,
        start: ms(event.start),
        end: ms(event.end),
        type: 'audio_event',
      });
    }
  }
  // Stable: words keep their order; an event goes before the first word that starts after it.
  return entries
    .map((entry, order) => ({ entry, order }))
    .sort((a, b) => a.entry.start - b.entry.start || a.order - b.order)
    .map(({ entry }) => entry);
}

/** Puts a `spacing` entry between each two entries: from the first's end to the next's start. */
export function withSpacings(entries: readonly Entry[], channelIndex?: number): SpeechToTextWord[] {
  const channel = channelIndex === undefined ? {} : { channel_index: channelIndex };
  const words: SpeechToTextWord[] = [];
  entries.forEach((entry, i) => {
    const before = entries[i - 1];
    if (before) {
      const start = Math.min(before.end, entry.start);
      words.push({
        text: ' ',
        start,
        end: Math.max(start, entry.start),
        type: 'spacing',
        ...(entry.speaker_id ? { speaker_id: entry.speaker_id } : {}),
        logprob: 0,
        ...('channel_index' in entry ? { channel_index: entry.channel_index } : channel),
      });
    }
    words.push({ ...channel, ...entry, logprob: 0 });
  });
  return words;
}

/** The text of a transcript: its entries' texts joined (words, spaces and event tags). */
export function textOf(words: readonly SpeechToTextWord[]): string {
  return words.map((w) => w.text).join('');
}

/** One channel (or the mix of all) as the public API's SpeechToTextChunkResponseModel. */
export function toChunk(heard: FileTranscription, options: ChunkOptions): SpeechToTextChunk {
  const words = withSpacings(entriesOf(heard, options), options.channelIndex);
  return {
    language_code: heard.languageCode,
    language_probability: heard.languageProbability,
    text: textOf(words),
    words,
    ...(options.channelIndex === undefined ? {} : { channel_index: options.channelIndex }),
  };
}

/**
 * `use_multi_channel`: one chunk per channel (`separate`, the multichannel form), or every channel's words
 * in one chunk sorted by time, each carrying its `channel_index` (`combined`).
 */
export function toMultichannel(
  channels: readonly FileTranscription[],
  options: Omit<ChunkOptions, 'channelIndex'> & { style: 'separate' | 'combined' },
): WireTranscript {
  const chunks = channels.map((heard, channelIndex) => toChunk(heard, { ...options, channelIndex }));
  if (options.style === 'separate') return { transcripts: chunks } satisfies MultichannelSpeechToText;
  const merged = chunks
    .flatMap((chunk) => chunk.words.filter((w) => w.type !== 'spacing'))
    .map((word, order) => ({ word, order }))
    .sort((a, b) => a.word.start - b.word.start || a.order - b.order)
    .map(({ word }) => {
      const { logprob: _logprob, ...entry } = word;
      return entry;
    });
  const words = withSpacings(merged);
  const best = [...chunks].sort((a, b) => b.language_probability - a.language_probability)[0];
  return {
    language_code: best?.language_code ?? 'eng',
    language_probability: best?.language_probability ?? 0,
    text: textOf(words),
    words,
  };
}

/** The chunks of a transcript, whichever its form. */
export function chunksOf(transcript: WireTranscript): SpeechToTextChunk[] {
  return 'transcripts' in transcript ? transcript.transcripts : [transcript];
}

/**
 * One transcript for the export formats (transcript-formats.ts): a multichannel transcript's channels
 * one after another, each word keeping its `channel_index` (the formats start a segment on a change of
 * channel), the texts one line per channel.
 */
export function singleTranscript(transcript: WireTranscript): SpeechToTextChunk {
  if (!('transcripts' in transcript)) return transcript;
  const chunks = transcript.transcripts;
  return {
    language_code: chunks[0]?.language_code ?? 'eng',
    language_probability: chunks[0]?.language_probability ?? 0,
    text: chunks.map((c) => c.text).join('\n'),
    words: chunks.flatMap((c, i) => c.words.map((w) => ({ ...w, channel_index: c.channel_index ?? i }))),
    ...(transcript.transcription_id ? { transcription_id: transcript.transcription_id } : {}),
    ...(transcript.audio_duration_secs !== undefined
      ? { audio_duration_secs: transcript.audio_duration_secs }
      : {}),
  };
}

/** The speaker ids a transcript names, in the order they first speak. */
export function speakersOf(transcript: WireTranscript): string[] {
  const seen = new Set<string>();
  for (const chunk of chunksOf(transcript))
    for (const word of chunk.words) if (word.speaker_id) seen.add(word.speaker_id);
  return [...seen];
}
