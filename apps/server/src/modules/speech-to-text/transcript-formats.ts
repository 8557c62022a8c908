import type { AdditionalFormatResponse, SpeechToTextWord, WireTranscript } from '@parla/contracts';
import { strToU8, zipSync } from 'fflate';
import { chunksOf } from './transcript-words';

/*
 * A transcript as a file (issue 19: `additional_formats` and the page's exports). This is the speech-to-text
 * module's first, plain version behind the signature the formats work (stt-formats) fills in: segments cut
 * on a change of speaker, a silence, a duration or a length; SRT, WebVTT, text, JSON, segmented JSON, HTML,
 * DOCX and PDF.
 */

export type TranscriptFormat = 'srt' | 'txt' | 'segmented_json' | 'docx' | 'pdf' | 'html' | 'webvtt' | 'json';

/** The public API's export options (snake_case, as `additional_formats` sends them). */
export interface FormatOptions {
  format: TranscriptFormat;
  include_speakers?: boolean | undefined;
  include_timestamps?: boolean | undefined;
  segment_on_silence_longer_than_s?: number | null | undefined;
  max_segment_duration_s?: number | null | undefined;
  max_segment_chars?: number | null | undefined;
  max_characters_per_line?: number | null | undefined;
}

export interface TranscriptSegment {
  text: string;
  start: number;
  end: number;
  speaker: string | undefined;
  words: SpeechToTextWord[];
}

const DEFAULT_SILENCE_S = 0.8;
const DEFAULT_MAX_DURATION_S = 8;
const DEFAULT_MAX_CHARS = 90;

/** The transcript's words and events cut into segments by the options' rules (spacings are the joints). */
export function segmentTranscript(transcript: WireTranscript, options: FormatOptions): TranscriptSegment[] {
  const silence = options.segment_on_silence_longer_than_s ?? DEFAULT_SILENCE_S;
  const maxDuration = options.max_segment_duration_s ?? DEFAULT_MAX_DURATION_S;
  const maxChars = options.max_segment_chars ?? DEFAULT_MAX_CHARS;
  const words = chunksOf(transcript)
    .flatMap((c) => c.words.filter((w) => w.type !== 'spacing'))
    .sort((a, b) => a.start - b.start);
  const segments: TranscriptSegment[] = [];
  let current: TranscriptSegment | undefined;
  for (const word of words) {
    const breaks =
      current &&
      (word.speaker_id !== current.speaker ||
        word.start - current.end > silence ||
        word.end - current.start > maxDuration ||
        current.text.length + 1 + word.text.length > maxChars);
    if (!current || breaks) {
      current = {
        text: word.text,
        start: word.start,
        end: word.end,
        speaker: word.speaker_id,
        words: [word],
      };
      segments.push(current);
    } else {
      current.text += ` ${word.text}`;
      current.end = Math.max(current.end, word.end);
      current.words.push(word);
    }
  }
  return segments;
}

/** `hh:mm:ss,mmm` (SRT) or `hh:mm:ss.mmm` (WebVTT). */
export function clockTime(seconds: number, separator: ',' | '.'): string {
  const total = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(total % 1000, 3)}`;
}

/** Wraps a text into lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number | null | undefined): string {
  if (!width) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** A segment's speaker as shown: the name given to it, else its id. */
const speakerLabel = (segment: TranscriptSegment, names: Record<string, string>) =>
  segment.speaker ? (names[segment.speaker] ?? segment.speaker) : undefined;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The lines a document shows: `[00:00:01] Speaker: text`, as the options say. */
function documentLines(segments: TranscriptSegment[], options: FormatOptions, names: Record<string, string>) {
  const speakers = options.include_speakers ?? true;
  const timestamps = options.include_timestamps ?? true;
  return segments.map((segment) => {
    const time = timestamps ? `[${clockTime(segment.start, '.').slice(0, 8)}] ` : '';
    const who = speakers ? speakerLabel(segment, names) : undefined;
    return `${time}${who ? `${who}: ` : ''}${segment.text}`;
  });
}

/** A minimal Word document: one paragraph per line (Office Open XML, zipped). */
function docxOf(lines: string[]): Uint8Array {
  const xml = (text: string) => escapeHtml(text).replace(/'/g, '&apos;');
  const body = lines.map((l) => `<w:p><w:r><w:t xml:space="preserve">${xml(l)}</w:t></w:r></w:p>`).join('');
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

/**
 * A minimal PDF: the lines in Helvetica on A4 pages. The standard fonts know WinAnsi only: a character
 * outside Latin-1 is written as `?`.
 */
function pdfOf(lines: string[]): Buffer {
  const wrapped = lines.flatMap((l) => wrap(l, 95).split('\n').concat(['']));
  const perPage = 60;
  const pages: string[][] = [];
  for (let i = 0; i < wrapped.length; i += perPage) pages.push(wrapped.slice(i, i + perPage));
  if (pages.length === 0) pages.push([]);
  const pdfText = (text: string) =>
    text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
  const objects: string[] = [];
  // 1 catalog, 2 pages, 3 font, then a page and its content per page.
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  for (const [i, page] of pages.entries()) {
    const text = page.map((l) => `(${pdfText(l)}) Tj T*`).join(' ');
    const stream = `BT /F1 10 Tf 12 TL 50 800 Td ${text} ET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A transcript in one format, as `additional_formats[]` carries it (binary formats in base64). */
export function formatTranscript(
  transcript: WireTranscript,
  options: FormatOptions,
  speakerNames: Record<string, string> = {},
): AdditionalFormatResponse {
  const segments = segmentTranscript(transcript, options);
  const speakers = options.include_speakers ?? true;
  const timestamps = options.include_timestamps ?? true;
  const text = (format: string, extension: string, contentType: string, content: string) => ({
    requested_format: format,
    file_extension: extension,
    content_type: contentType,
    is_base64_encoded: false,
    content,
  });
  const cueText = (segment: TranscriptSegment) => {
    const who = speakers ? speakerLabel(segment, speakerNames) : undefined;
    return wrap(`${who ? `[${who}] ` : ''}${segment.text}`, options.max_characters_per_line);
  };
  switch (options.format) {
    case 'srt':
      return text(
        'srt',
        'srt',
        'application/x-subrip',
        segments
          .map((s, i) => `${i + 1}\n${clockTime(s.start, ',')} --> ${clockTime(s.end, ',')}\n${cueText(s)}\n`)
          .join('\n'),
      );
    case 'webvtt':
      return text(
        'webvtt',
        'vtt',
        'text/vtt',
        `WEBVTT\n\n${segments.map((s) => `${clockTime(s.start, '.')} --> ${clockTime(s.end, '.')}\n${cueText(s)}\n`).join('\n')}`,
      );
    case 'txt':
      return text(
        'txt',
        'txt',
        'text/plain',
        `${documentLines(segments, options, speakerNames)
          .map((l) => wrap(l, options.max_characters_per_line))
          .join('\n')}\n`,
      );
    case 'json':
      return text('json', 'json', 'application/json', JSON.stringify(transcript));
    case 'segmented_json':
      return text(
        'segmented_json',
        'json',
        'application/json',
        JSON.stringify({
          segments: segments.map((s) => ({
            text: s.text,
            ...(timestamps ? { start: s.start, end: s.end } : {}),
            ...(speakers && s.speaker ? { speaker: speakerLabel(s, speakerNames) } : {}),
            words: s.words,
          })),
        }),
      );
    case 'html': {
      const body = documentLines(segments, options, speakerNames)
        .map((l) => `<p>${escapeHtml(l)}</p>`)
        .join('\n');
      return text(
        'html',
        'html',
        'text/html',
        `<!doctype html>\n<html><head><meta charset="utf-8"><title>Transcript</title></head><body>\n${body}\n</body></html>\n`,
      );
    }
    case 'docx':
      return {
        requested_format: 'docx',
        file_extension: 'docx',
        content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        is_base64_encoded: true,
        content: Buffer.from(docxOf(documentLines(segments, options, speakerNames))).toString('base64'),
      };
    case 'pdf':
      return {
        requested_format: 'pdf',
        file_extension: 'pdf',
        content_type: 'application/pdf',
        is_base64_encoded: true,
        content: pdfOf(documentLines(segments, options, speakerNames)).toString('base64'),
      };
  }
}
