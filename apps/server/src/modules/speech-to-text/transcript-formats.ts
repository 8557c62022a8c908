import { writeDocx } from './docx-writer';
import { writePdf } from './pdf-writer';
import { escapeXml, type TranscriptDocument, type TranscriptParagraph } from './transcript-document';
import {
  cleanText,
  clockTime,
  type Segment,
  type SegmentableWord,
  type SegmentRules,
  segmentWords,
  shortTime,
  subtitleLines,
  wrapText,
} from './transcript-segments';

/**
 * A transcript in the export formats: the public API's `additional_formats` (srt, txt, segmented_json,
 * docx, pdf, html, and webvtt) and the transcription page's downloads (those and json).
 *
 * Every format starts from the same segments (transcript-segments.ts). The public API does not state its
 * defaults; ours:
 *
 * | | srt, webvtt | txt, html, docx, pdf, segmented_json |
 * | --- | --- | --- |
 * | `max_characters_per_line` | 42 (a cue has at most 2 lines) | txt: no wrapping |
 * | `max_segment_chars` | 84 (two full lines) | 800 |
 * | `max_segment_duration_s` | 7 | 60 |
 * | `segment_on_silence_longer_than_s` | 1 | 2 |
 * | `include_speakers` | true | true |
 * | `include_timestamps` | (cue times are the format) | true; txt false |
 *
 * With `max_segment_chars` given, a cue holds that many characters, wrapped to as many lines as it takes.
 * A segment also ends at every change of speaker. Speakers print as the names given (`speaker_0` →
 * "Alice"), else as "Speaker 1", "Speaker 2"…; only a transcript with speakers (diarized) has any. json
 * and segmented_json keep `speaker_id` and add the given name as `speaker_name`.
 * Audio events print as "(laughter)". docx and pdf are base64, the others plain UTF-8 text. Numbers that
 * are not finite, or not positive (silence: negative), count as not given.
 */

/** A word of the public API's transcript (`SpeechToTextWordResponseModel`, snake_case). */
export interface WireWord extends SegmentableWord {
  text: string;
  start?: number | null;
  end?: number | null;
  type: 'word' | 'spacing' | 'audio_event';
  speaker_id?: string | null;
  logprob: number;
  characters?: { text: string; start?: number | null; end?: number | null }[] | null;
  channel_index?: number | null;
}

/** The public API's transcript (`SpeechToTextChunkResponseModel`, snake_case). */
export interface WireTranscript {
  language_code: string;
  language_probability: number;
  text: string;
  words: WireWord[];
  channel_index?: number | null;
  transcription_id?: string | null;
  audio_duration_secs?: number | null;
  additional_formats?: unknown;
}

export type ExportFormat = 'srt' | 'txt' | 'segmented_json' | 'docx' | 'pdf' | 'html' | 'webvtt' | 'json';

export const EXPORT_FORMATS: readonly ExportFormat[] = [
  'srt',
  'txt',
  'segmented_json',
  'docx',
  'pdf',
  'html',
  'webvtt',
  'json',
];

/** One element of `additional_formats` (the public API's `ExportOptions`, wire names). */
export interface ExportOptions {
  format: ExportFormat;
  max_characters_per_line?: number | null;
  include_speakers?: boolean | null;
  include_timestamps?: boolean | null;
  segment_on_silence_longer_than_s?: number | null;
  max_segment_duration_s?: number | null;
  max_segment_chars?: number | null;
}

/** The public API's `AdditionalFormatResponseModel`. */
export interface AdditionalFormat {
  requested_format: string;
  file_extension: string;
  content_type: string;
  is_base64_encoded: boolean;
  content: string;
}

const FILES: Record<ExportFormat, { extension: string; contentType: string }> = {
  srt: { extension: 'srt', contentType: 'application/x-subrip; charset=utf-8' },
  webvtt: { extension: 'vtt', contentType: 'text/vtt; charset=utf-8' },
  txt: { extension: 'txt', contentType: 'text/plain; charset=utf-8' },
  segmented_json: { extension: 'json', contentType: 'application/json' },
  json: { extension: 'json', contentType: 'application/json' },
  html: { extension: 'html', contentType: 'text/html; charset=utf-8' },
  docx: {
    extension: 'docx',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  pdf: { extension: 'pdf', contentType: 'application/pdf' },
};

const SUBTITLE_LINE_CHARS = 42;
const SUBTITLE_LINES = 2;

const positive = (value: number | null | undefined): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
const nonNegative = (value: number | null | undefined): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/** How a speaker is printed: the name given for it, else "Speaker 1" for `speaker_0`, else its id. */
export function speakerLabel(speakerId: string, speakerNames?: Record<string, string>): string {
  const name = speakerNames && Object.hasOwn(speakerNames, speakerId) ? speakerNames[speakerId] : undefined;
  const given = typeof name === 'string' ? cleanText(name) : '';
  if (given) return given;
  const number = /^speaker_(\d+)$/.exec(speakerId);
  return number ? `Speaker ${Number(number[1]) + 1}` : cleanText(speakerId);
}

/** The export's options resolved against the format's defaults (see the file's header). */
interface Resolved {
  rules: SegmentRules;
  /** Subtitles: the cue's line width; txt: its wrap width, if any. */
  lineChars?: number;
  speakers: boolean;
  timestamps: boolean;
}

function resolve(options: ExportOptions, label: (id: string) => string): Resolved {
  const subtitles = options.format === 'srt' || options.format === 'webvtt';
  const speakers = options.include_speakers ?? true;
  const timestamps = options.include_timestamps ?? options.format !== 'txt';
  const lineChars = positive(options.max_characters_per_line);
  const maxChars = positive(options.max_segment_chars);
  const rules: SegmentRules = {
    silenceS: nonNegative(options.segment_on_silence_longer_than_s) ?? (subtitles ? 1 : 2),
    maxDurationS: positive(options.max_segment_duration_s) ?? (subtitles ? 7 : 60),
    maxChars: maxChars ?? Number.POSITIVE_INFINITY,
  };
  if (!subtitles) {
    rules.maxChars = maxChars ?? 800;
    return {
      rules,
      speakers,
      timestamps,
      ...(lineChars ? { lineChars: Math.floor(Math.max(lineChars, 1)) } : {}),
    };
  }
  const width = Math.floor(Math.max(lineChars ?? SUBTITLE_LINE_CHARS, 1));
  // Without a character limit, a cue holds what fits in two lines; with one, it is wrapped to its lines.
  if (maxChars === undefined) rules.lines = { lineChars: width, maxLines: SUBTITLE_LINES };
  // srt prints the speaker's name in the cue, so it counts; webvtt names the voice in a tag.
  if (options.format === 'srt' && speakers) rules.prefixLength = (id) => (id ? label(id).length + 2 : 0);
  return { rules, speakers, timestamps, lineChars: width };
}

/** Cue times: at least 1 s on screen where the next cue leaves room, never over the next cue. */
function cueTimes(segments: readonly Segment[]): { start: number; end: number }[] {
  return segments.map((segment, index) => {
    const next = segments[index + 1]?.start ?? Number.POSITIVE_INFINITY;
    let end = Math.max(segment.end, Math.min(segment.start + 1, next));
    if (end > next && next > segment.start) end = next;
    return { start: segment.start, end };
  });
}

function srt(segments: readonly Segment[], resolved: Resolved, label: (id: string) => string): string {
  const times = cueTimes(segments);
  const cues = segments.map((segment, index) => {
    const time = times[index] as { start: number; end: number };
    const prefix = resolved.speakers && segment.speakerId ? `${label(segment.speakerId)}: ` : '';
    // "-->" on a text line would read as a timing line.
    const lines = subtitleLines(`${prefix}${segment.text}`.replace(/-->/g, '->'), resolved.lineChars ?? 42);
    return `${index + 1}\n${clockTime(time.start, ',')} --> ${clockTime(time.end, ',')}\n${lines.join('\n')}\n`;
  });
  return cues.join('\n');
}

/** Cue text in WebVTT: `&`, `<` and `>` as character references (which also rules out "-->"). */
const escapeCue = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function webvtt(segments: readonly Segment[], resolved: Resolved, label: (id: string) => string): string {
  const times = cueTimes(segments);
  const cues = segments.map((segment, index) => {
    const time = times[index] as { start: number; end: number };
    const lines = subtitleLines(segment.text, resolved.lineChars ?? 42).map(escapeCue);
    const voice = resolved.speakers && segment.speakerId ? `<v ${escapeCue(label(segment.speakerId))}>` : '';
    return `${index + 1}\n${clockTime(time.start, '.')} --> ${clockTime(time.end, '.')}\n${voice}${lines.join('\n')}\n`;
  });
  return ['WEBVTT\n', ...cues].join('\n');
}

function paragraphs(segments: readonly Segment[], resolved: Resolved, label: (id: string) => string) {
  return segments.map(
    (segment): TranscriptParagraph => ({
      ...(resolved.timestamps ? { time: shortTime(segment.start) } : {}),
      ...(resolved.speakers && segment.speakerId ? { speaker: label(segment.speakerId) } : {}),
      text: segment.text,
    }),
  );
}

function txt(segments: readonly Segment[], resolved: Resolved, label: (id: string) => string): string {
  const blocks = paragraphs(segments, resolved, label).map((paragraph) => {
    const line = `${paragraph.time ? `[${paragraph.time}] ` : ''}${paragraph.speaker ? `${paragraph.speaker}: ` : ''}${paragraph.text}`;
    return resolved.lineChars ? wrapText(line, resolved.lineChars).join('\n') : line;
  });
  return blocks.length > 0 ? `${blocks.join('\n\n')}\n` : '';
}

const seconds = (value: number) => Math.round(value * 1000) / 1000;

function segmentedJson(
  transcript: WireTranscript,
  segments: readonly Segment<WireWord>[],
  resolved: Resolved,
  speakerNames: Record<string, string> | undefined,
): string {
  const speaker = (id: string | undefined) =>
    resolved.speakers && id
      ? {
          speaker_id: id,
          ...(speakerNames && Object.hasOwn(speakerNames, id)
            ? { speaker_name: speakerLabel(id, speakerNames) }
            : {}),
        }
      : {};
  const times = (start: number, end: number) =>
    resolved.timestamps ? { start_time: seconds(start), end_time: seconds(end) } : {};
  return `${JSON.stringify(
    {
      language_code: transcript.language_code,
      segments: segments.map((segment) => ({
        text: segment.text,
        ...times(segment.start, segment.end),
        ...speaker(segment.speakerId),
        words: segment.words.map((word) => ({
          text: word.text,
          ...times(word.start, word.end),
          type: word.type,
          ...(word.source ? { logprob: word.source.logprob } : {}),
        })),
      })),
    },
    null,
    2,
  )}\n`;
}

/** The transcript itself (without `additional_formats`), names added as `speaker_name`, filtered by the options. */
function json(
  transcript: WireTranscript,
  resolved: Resolved,
  speakerNames: Record<string, string> | undefined,
): string {
  const { additional_formats: _formats, ...rest } = transcript;
  const dropped = new Set([
    ...(resolved.timestamps ? [] : ['start', 'end', 'characters']),
    ...(resolved.speakers ? [] : ['speaker_id']),
  ]);
  const words = (transcript.words ?? []).map((word) => {
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(word)) if (!dropped.has(key)) kept[key] = value;
    if (
      resolved.speakers &&
      word.speaker_id &&
      speakerNames &&
      Object.hasOwn(speakerNames, word.speaker_id)
    ) {
      kept.speaker_name = speakerLabel(word.speaker_id, speakerNames);
    }
    return kept;
  });
  return `${JSON.stringify({ ...rest, words }, null, 2)}\n`;
}

/** The language's English name ("English" for `eng`), else its code. */
function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
    return name && name !== code ? name : code;
  } catch {
    return code;
  }
}

function toDocument(
  transcript: WireTranscript,
  segments: readonly Segment[],
  resolved: Resolved,
  label: (id: string) => string,
): TranscriptDocument {
  const language = cleanText(transcript.language_code ?? '');
  const duration = positive(transcript.audio_duration_secs) ?? segments.at(-1)?.end;
  const speakers = new Set(segments.flatMap((segment) => (segment.speakerId ? [segment.speakerId] : [])));
  const details = [
    language ? languageName(language) : '',
    duration !== undefined ? `Duration ${shortTime(Math.ceil(duration))}` : '',
    resolved.speakers && speakers.size > 0 ? `${speakers.size} speaker${speakers.size === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  let languageCode: string | undefined;
  try {
    languageCode = language ? Intl.getCanonicalLocales(language)[0] : undefined;
  } catch {
    languageCode = undefined;
  }
  return {
    title: 'Transcript',
    details: details.length > 0 ? details.join(' · ') : 'No speech',
    ...(languageCode ? { languageCode } : {}),
    paragraphs: paragraphs(segments, resolved, label),
  };
}

const HTML_STYLE = `:root{color-scheme:light dark}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1c1e;background:#fff}
main{max-width:44rem;margin:0 auto;padding:2.5rem 1.25rem 4rem}
h1{font-size:1.75rem;line-height:1.2;margin:0 0 .25rem}
.details{color:#5f5f66;font-size:.9rem;margin:0 0 2rem}
p{margin:0 0 1rem;overflow-wrap:anywhere}
.time{color:#5f5f66;font-variant-numeric:tabular-nums}
.speaker{font-weight:600}
@media (prefers-color-scheme:dark){body{color:#ececf1;background:#18181b}.details,.time{color:#a1a1aa}}`;

/** A complete HTML page, light or dark as the reader's system is, every text escaped. */
function html(transcript: TranscriptDocument): string {
  const body = transcript.paragraphs.map((paragraph) => {
    const time = paragraph.time ? `<span class="time">[${paragraph.time}]</span> ` : '';
    const speaker = paragraph.speaker ? `<span class="speaker">${escapeXml(paragraph.speaker)}:</span> ` : '';
    return `<p>${time}${speaker}${escapeXml(paragraph.text)}</p>`;
  });
  return `<!DOCTYPE html>
<html${transcript.languageCode ? ` lang="${escapeXml(transcript.languageCode)}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Parla">
<title>${escapeXml(transcript.title)}</title>
<style>
${HTML_STYLE}
</style>
</head>
<body>
<main>
<h1>${escapeXml(transcript.title)}</h1>
<p class="details">${escapeXml(transcript.details)}</p>
${body.join('\n')}
</main>
</body>
</html>
`;
}

/** The transcript in one export format (see the file's header for the options' defaults). */
export function formatTranscript(
  transcript: WireTranscript,
  options: ExportOptions,
  speakerNames?: Record<string, string>,
): AdditionalFormat {
  const file = FILES[options.format];
  if (!file) throw new TypeError(`Unknown transcript format: ${String(options.format)}`);
  const label = (id: string) => speakerLabel(id, speakerNames);
  const resolved = resolve(options, label);
  const segments = segmentWords(transcript.words ?? [], resolved.rules, {
    text: transcript.text ?? '',
    durationSecs: transcript.audio_duration_secs ?? 0,
  });
  const text = (content: string): AdditionalFormat => ({
    requested_format: options.format,
    file_extension: file.extension,
    content_type: file.contentType,
    is_base64_encoded: false,
    content,
  });
  const binary = (content: Buffer): AdditionalFormat => ({
    ...text(content.toString('base64')),
    is_base64_encoded: true,
  });
  switch (options.format) {
    case 'srt':
      return text(srt(segments, resolved, label));
    case 'webvtt':
      return text(webvtt(segments, resolved, label));
    case 'txt':
      return text(txt(segments, resolved, label));
    case 'segmented_json':
      return text(segmentedJson(transcript, segments, resolved, speakerNames));
    case 'json':
      return text(json(transcript, resolved, speakerNames));
    case 'html':
      return text(html(toDocument(transcript, segments, resolved, label)));
    case 'docx':
      return binary(writeDocx(toDocument(transcript, segments, resolved, label)));
    case 'pdf':
      return binary(writePdf(toDocument(transcript, segments, resolved, label)));
  }
}
