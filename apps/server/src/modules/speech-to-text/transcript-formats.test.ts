import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import * as sdkWire from '@elevenlabs/elevenlabs-js/serialization/index.js';
import fc from 'fast-check';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { readPdfText } from '../../test/pdf-text';
import {
  type AdditionalFormat,
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportOptions,
  formatTranscript,
  speakerLabel,
  type WireTranscript,
  type WireWord,
} from './transcript-formats';

// ── A transcript as the API answers it: words with times, spacing between them, speakers ──────────────

interface Turn {
  speaker?: string;
  text: string;
  /** Silence before the turn, seconds (0.08 between words otherwise). */
  pause?: number;
}

function transcriptOf(turns: readonly Turn[], startAt = 0.5): WireTranscript {
  const words: WireWord[] = [];
  let at = startAt;
  for (const turn of turns) {
    at += turn.pause ?? 0;
    for (const token of turn.text.split(' ').filter(Boolean)) {
      const speaker = turn.speaker ? { speaker_id: turn.speaker } : {};
      if (words.length > 0)
        words.push({ text: ' ', start: at - 0.08, end: at, type: 'spacing', logprob: 0, ...speaker });
      const length = 0.06 * token.length + 0.12;
      const event = /^\(.*\)$/.test(token);
      words.push({
        text: token,
        start: at,
        end: at + length,
        type: event ? 'audio_event' : 'word',
        logprob: -0.2,
        ...speaker,
      });
      at += length + 0.08;
    }
  }
  return {
    language_code: 'eng',
    language_probability: 0.97,
    text: words.map((word) => word.text).join(''),
    words,
    transcription_id: 'abcdefghij0123456789',
    audio_duration_secs: Math.ceil(at),
  };
}

const DIALOGUE = transcriptOf([
  { speaker: 'speaker_0', text: 'Hello there, how are you today?' },
  {
    speaker: 'speaker_1',
    text: '(laughter) Fine, thanks. The café was great & the <tea> was "hot".',
    pause: 0.4,
  },
  { speaker: 'speaker_0', text: 'Über-good. We had crème brûlée and 日本 sweets.', pause: 0.3 },
]);

const STORY =
  'Let me tell you a long story about the weather in the mountains, which changes every hour and surprises every visitor who comes without a coat, an umbrella or a map of the trails that wind up the valley. The shepherds say the wind knows the way home; the rest of us follow the cairns and hope the fog lifts before dark.';
const MONOLOGUE = transcriptOf([{ speaker: 'speaker_0', text: `${STORY} ${STORY} ${STORY}` }]);

const EMPTY: WireTranscript = {
  language_code: 'eng',
  language_probability: 0,
  text: '',
  words: [],
  audio_duration_secs: 0,
};

const NAMES = { speaker_0: 'Alice' };

const text = (result: AdditionalFormat) => {
  expect(result.is_base64_encoded).toBe(false);
  return result.content;
};
const bytes = (result: AdditionalFormat) => {
  expect(result.is_base64_encoded).toBe(true);
  return Buffer.from(result.content, 'base64');
};
const format = (transcript: WireTranscript, options: ExportOptions, names?: Record<string, string>) =>
  formatTranscript(transcript, options, names);

/** The words of a transcript, as the formats print them. */
const spokenWords = (transcript: WireTranscript) =>
  transcript.words.filter((word) => word.type !== 'spacing').map((word) => word.text);

// ── SRT / WebVTT parsing, to check cues rather than strings ─────────────────────────────────────────────

interface Cue {
  index: string;
  start: string;
  end: string;
  lines: string[];
}

function cuesOf(content: string): Cue[] {
  return content
    .trim()
    .split(/\n\n+/)
    .filter((block) => block && block !== 'WEBVTT')
    .map((block) => {
      const [index = '', timing = '', ...lines] = block.split('\n');
      const match = /^(\S+) --> (\S+)$/.exec(timing);
      expect(match, block).not.toBeNull();
      return { index, start: match?.[1] ?? '', end: match?.[2] ?? '', lines };
    });
}

const seconds = (clock: string) => {
  const [h = '0', m = '0', s = '0'] = clock.replace(',', '.').split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
};

// ── Real tools, where this machine has them ─────────────────────────────────────────────────────────────

const has = (command: string, args: string[]) => {
  const run = spawnSync(command, args, { stdio: 'ignore' });
  return !run.error;
};
const HAS_PDFTOTEXT = has('pdftotext', ['-v']);
const HAS_QPDF = has('qpdf', ['--version']);
const HAS_UNZIP = has('unzip', ['-v']);
const HAS_PYTHON = has('python3', ['--version']);
const HAS_SOFFICE = has('soffice', ['--version']);

const scratch = mkdtempSync(path.join(tmpdir(), 'parla-transcript-formats-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;
const saved = (content: Buffer, extension: string) => {
  files += 1;
  const file = path.join(scratch, `export-${files}.${extension}`);
  writeFileSync(file, content);
  return file;
};

const pdftotext = (pdf: Buffer) => {
  const run = spawnSync('pdftotext', ['-enc', 'UTF-8', saved(pdf, 'pdf'), '-'], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
};

/**
 * A PDF's structure checked without a PDF library: the cross-reference table's offsets each land on their
 * object, `startxref` on the table, every stream ends where its length says and inflates, and each page
 * has a content stream. Answers the pages' content streams.
 */
function checkPdf(pdf: Buffer): { pages: number; streams: string[] } {
  const source = pdf.toString('latin1');
  expect(source.startsWith('%PDF-1.4\n')).toBe(true);
  expect(source.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(source)?.[1]);
  expect(source.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(source.slice(startxref)) ?? [];
  expect(first).toBe('0');
  const entries = source
    .slice(startxref)
    .split('\n')
    .slice(2, 2 + Number(count));
  expect(entries[0]).toBe('0000000000 65535 f ');
  entries.slice(1).forEach((entry, index) => {
    expect(entry).toMatch(/^\d{10} 00000 n $/);
    const offset = Number(entry.slice(0, 10));
    expect(source.slice(offset, offset + 20)).toMatch(new RegExp(`^${index + 1} 0 obj\\n`));
  });
  expect(source).toMatch(new RegExp(`trailer\\n<< /Size ${count} /Root 1 0 R /Info 5 0 R >>`));
  const streams = new Map<number, string>();
  for (const match of source.matchAll(
    /(\d+) 0 obj\n<< \/Length (\d+)[^>]*\/Filter \/FlateDecode >>\nstream\n/g,
  )) {
    const at = (match.index ?? 0) + match[0].length;
    const length = Number(match[2]);
    expect(source.slice(at + length, at + length + 10)).toBe('\nendstream');
    streams.set(Number(match[1]), inflateSync(pdf.subarray(at, at + length)).toString('latin1'));
  }
  const pages = Number(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(source)?.[1]);
  const contents = [...source.matchAll(/\/Type \/Page \/Parent [^\n]*\/Contents (\d+) 0 R/g)].map(
    (match) => streams.get(Number(match[1])) ?? '',
  );
  expect(contents).toHaveLength(pages);
  return { pages, streams: contents };
}

/** The docx's parts, checked as a ZIP by fflate (and `unzip -t` where it is installed). */
function docxParts(docx: Buffer): Record<string, string> {
  const entries = unzipSync(new Uint8Array(docx));
  expect(Object.keys(entries)).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
  if (HAS_UNZIP) {
    const run = spawnSync('unzip', ['-t', saved(docx, 'docx')], { encoding: 'utf8' });
    expect(run.stdout).toContain('No errors detected');
  }
  return Object.fromEntries(
    Object.entries(entries).map(([name, data]) => [name, Buffer.from(data).toString('utf8')]),
  );
}

/** Reads word/document.xml with Python's zipfile and parses it as XML: its paragraphs' text. */
function pythonDocxText(docx: Buffer): string {
  const script = [
    'import sys, zipfile, xml.dom.minidom',
    'z = zipfile.ZipFile(sys.argv[1])',
    'assert z.testzip() is None',
    "doc = xml.dom.minidom.parseString(z.read('word/document.xml'))",
    "for p in doc.getElementsByTagName('w:p'):",
    "    sys.stdout.write(''.join(t.firstChild.data if t.firstChild else '' for t in p.getElementsByTagName('w:t')) + '\\n')",
  ].join('\n');
  const run = spawnSync('python3', ['-c', script, saved(docx, 'docx')], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

// ── The formats ─────────────────────────────────────────────────────────────────────────────────────────

describe('formatTranscript: the file each format names', () => {
  it.each([
    ['srt', 'srt', 'application/x-subrip; charset=utf-8', false],
    ['webvtt', 'vtt', 'text/vtt; charset=utf-8', false],
    ['txt', 'txt', 'text/plain; charset=utf-8', false],
    ['segmented_json', 'json', 'application/json', false],
    ['json', 'json', 'application/json', false],
    ['html', 'html', 'text/html; charset=utf-8', false],
    ['docx', 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', true],
    ['pdf', 'pdf', 'application/pdf', true],
  ] as const)('%s → .%s, %s', (name, extension, contentType, base64) => {
    const result = format(DIALOGUE, { format: name });
    expect(result).toMatchObject({
      requested_format: name,
      file_extension: extension,
      content_type: contentType,
      is_base64_encoded: base64,
    });
    expect(result.content.length).toBeGreaterThan(0);
  });

  it('refuses a format it does not know', () => {
    expect(() => format(DIALOGUE, { format: 'odt' as ExportFormat })).toThrow(TypeError);
  });
});

describe('with the official client', () => {
  it.each(['srt', 'txt', 'segmented_json', 'docx', 'pdf', 'html'] as const)(
    'takes %s options as @elevenlabs/elevenlabs-js sends them and answers its AdditionalFormatResponseModel',
    (name) => {
      const options = sdkWire.ExportOptions.jsonOrThrow({
        format: name,
        includeSpeakers: false,
        includeTimestamps: true,
        segmentOnSilenceLongerThanS: 0.5,
        maxSegmentDurationS: 4,
        maxSegmentChars: 60,
        ...(name === 'srt' || name === 'txt' ? { maxCharactersPerLine: 30 } : {}),
      }) as ExportOptions;
      const result = format(MONOLOGUE, options, NAMES);
      const parsed = sdkWire.AdditionalFormatResponseModel.parseOrThrow(result, {
        unrecognizedObjectKeys: 'fail',
      });
      expect(parsed).toMatchObject({
        requestedFormat: name,
        isBase64Encoded: name === 'docx' || name === 'pdf',
      });
      if (name === 'srt') {
        for (const cue of cuesOf(parsed.content)) {
          expect(seconds(cue.end) - seconds(cue.start)).toBeLessThanOrEqual(4);
          expect(cue.lines.join(' ').length).toBeLessThanOrEqual(60);
          for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(30);
          expect(cue.lines.join(' ')).not.toContain('Speaker');
        }
      }
      if (name === 'segmented_json') {
        for (const segment of JSON.parse(parsed.content).segments) {
          expect(segment.text.length).toBeLessThanOrEqual(60);
          expect(segment.end_time - segment.start_time).toBeLessThanOrEqual(4);
          expect(segment.speaker_id).toBeUndefined();
        }
      }
    },
  );
});

describe('srt', () => {
  it('numbers its cues, times them HH:MM:SS,mmm and names the speakers', () => {
    const content = text(format(DIALOGUE, { format: 'srt' }, NAMES));
    const cues = cuesOf(content);
    expect(cues.map((cue) => cue.index)).toEqual(cues.map((_, index) => String(index + 1)));
    expect(cues[0]).toMatchObject({
      start: '00:00:00,500',
      lines: ['Alice: Hello there, how are you today?'],
    });
    for (const cue of cues) {
      expect(cue.start).toMatch(/^\d\d:\d\d:\d\d,\d{3}$/);
      expect(seconds(cue.end)).toBeGreaterThan(seconds(cue.start));
    }
    // Each speaker change starts a cue; the unnamed speaker is "Speaker 2".
    expect(cues[1]?.lines[0]).toMatch(/^Speaker 2: \(laughter\) Fine, thanks\./);
    expect(cues.at(-1)?.lines.join(' ')).toMatch(/^Alice: .*sweets\.$/);
    expect(content).toContain('日本');
    // Every word is there, in order, once.
    const printed = cues.map((cue) => cue.lines.join(' ').replace(/^(Alice|Speaker 2): /, '')).join(' ');
    expect(printed).toBe(spokenWords(DIALOGUE).join(' '));
  });

  it('cuts a long monologue into cues of at most 2 lines of 42 characters and 7 seconds', () => {
    const cues = cuesOf(text(format(MONOLOGUE, { format: 'srt' })));
    expect(cues.length).toBeGreaterThan(10);
    for (const cue of cues) {
      expect(cue.lines.length).toBeLessThanOrEqual(2);
      for (const line of cue.lines) expect(line.length, line).toBeLessThanOrEqual(42);
      expect(seconds(cue.end) - seconds(cue.start)).toBeLessThanOrEqual(7);
    }
    const printed = cues.map((cue) => cue.lines.join(' ').replace(/^Speaker 1: /, '')).join(' ');
    expect(printed).toBe(spokenWords(MONOLOGUE).join(' '));
    // Cues end at a sentence or a clause where one is near: most end with punctuation.
    const punctuated = cues.filter((cue) => /[.,;?!]$/.test(cue.lines.at(-1) ?? ''));
    expect(punctuated.length / cues.length).toBeGreaterThan(0.5);
  });

  it('follows max_characters_per_line, max_segment_duration_s and max_segment_chars', () => {
    const narrow = cuesOf(
      text(format(MONOLOGUE, { format: 'srt', max_characters_per_line: 20, include_speakers: false })),
    );
    for (const cue of narrow) {
      expect(cue.lines.length).toBeLessThanOrEqual(2);
      for (const line of cue.lines) expect(line.length, line).toBeLessThanOrEqual(20);
    }
    const short = cuesOf(text(format(MONOLOGUE, { format: 'srt', max_segment_duration_s: 2.5 })));
    for (const cue of short) expect(seconds(cue.end) - seconds(cue.start)).toBeLessThanOrEqual(2.5);
    const options = { max_segment_chars: 100, max_characters_per_line: 20, max_segment_duration_s: 30 };
    const chars = cuesOf(text(format(MONOLOGUE, { format: 'srt', ...options, include_speakers: false })));
    for (const cue of chars) {
      expect(cue.lines.join(' ').length).toBeLessThanOrEqual(100);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(20);
    }
    expect(chars.some((cue) => cue.lines.length > 2)).toBe(true);
  });

  it('leaves the speakers out with include_speakers: false', () => {
    const content = text(format(DIALOGUE, { format: 'srt', include_speakers: false }, NAMES));
    expect(content).not.toMatch(/Alice|Speaker/);
  });

  it('never prints "-->" inside a cue', () => {
    const arrows = transcriptOf([{ text: 'a --> b' }]);
    const cues = cuesOf(text(format(arrows, { format: 'srt' })));
    expect(cues).toHaveLength(1);
    expect(cues[0]?.lines).toEqual(['a -> b']);
  });
});

describe('silence', () => {
  const paused = transcriptOf([
    { text: 'First part here' },
    { text: 'second part after a pause', pause: 1.5 },
  ]);

  it('splits on a silence longer than segment_on_silence_longer_than_s', () => {
    expect(cuesOf(text(format(paused, { format: 'srt' })))).toHaveLength(2);
    expect(cuesOf(text(format(paused, { format: 'srt', segment_on_silence_longer_than_s: 2 })))).toHaveLength(
      1,
    );
    expect(text(format(paused, { format: 'txt' }))).toBe('First part here second part after a pause\n');
    expect(text(format(paused, { format: 'txt', segment_on_silence_longer_than_s: 1 }))).toBe(
      'First part here\n\nsecond part after a pause\n',
    );
  });
});

describe('times', () => {
  it('counts hours past the first, and past 99', () => {
    const late = transcriptOf([{ text: 'Late words' }], 3725.5);
    expect(cuesOf(text(format(late, { format: 'srt' })))[0]?.start).toBe('01:02:05,500');
    expect(cuesOf(text(format(late, { format: 'webvtt' })))[0]?.start).toBe('01:02:05.500');
    expect(text(format(late, { format: 'txt', include_timestamps: true }))).toBe('[01:02:05] Late words\n');
    const veryLate = transcriptOf([{ text: 'Much later' }], 100 * 3600 + 59.9996);
    expect(cuesOf(text(format(veryLate, { format: 'srt' })))[0]?.start).toBe('100:01:00,000');
  });

  it('spreads a transcript without word times over the audio', () => {
    const untimed: WireTranscript = {
      language_code: 'eng',
      language_probability: 0.9,
      text: 'One two three four five six seven eight nine ten.',
      words: [],
      audio_duration_secs: 20,
    };
    const cues = cuesOf(text(format(untimed, { format: 'srt', max_segment_duration_s: 5 })));
    expect(cues.length).toBeGreaterThan(2);
    expect(cues[0]?.start).toBe('00:00:00,000');
    expect(seconds(cues.at(-1)?.end ?? '')).toBeCloseTo(20, 0);
    expect(cues.map((cue) => cue.lines.join(' ')).join(' ')).toBe(untimed.text);
  });
});

describe('webvtt', () => {
  it('starts with WEBVTT, times cues HH:MM:SS.mmm and names voices', () => {
    const content = text(format(DIALOGUE, { format: 'webvtt' }, NAMES));
    expect(content.startsWith('WEBVTT\n\n')).toBe(true);
    const cues = cuesOf(content);
    expect(cues[0]).toMatchObject({
      start: '00:00:00.500',
      lines: ['<v Alice>Hello there, how are you today?'],
    });
    expect(cues[1]?.lines[0]).toMatch(/^<v Speaker 2>\(laughter\)/);
  });

  it('escapes <, > and & in the text and in the voice', () => {
    const content = text(format(DIALOGUE, { format: 'webvtt' }, { speaker_1: 'Bob <b> & Co' }));
    expect(content).toContain('&lt;tea&gt;');
    expect(content).toContain('&amp; the');
    expect(content).toContain('<v Bob &lt;b&gt; &amp; Co>');
    expect(content).not.toContain('<tea>');
    const tags = content.match(/<[^>]*>/g) ?? [];
    for (const tag of tags) expect(tag).toMatch(/^<v [^<>]+>$/);
    expect(content).toContain('"hot"');
    expect(content).toContain('Über-good. We had crème\nbrûlée and 日本 sweets.');
  });
});

describe('txt', () => {
  it('writes a paragraph per segment, with speakers and no times by default', () => {
    expect(text(format(DIALOGUE, { format: 'txt' }, NAMES))).toBe(
      [
        'Alice: Hello there, how are you today?',
        'Speaker 2: (laughter) Fine, thanks. The café was great & the <tea> was "hot".',
        'Alice: Über-good. We had crème brûlée and 日本 sweets.',
        '',
      ]
        .join('\n\n')
        .replace(/\n\n$/, '\n'),
    );
  });

  it('prefixes [HH:MM:SS] with include_timestamps and leaves names out without include_speakers', () => {
    const content = text(
      format(DIALOGUE, { format: 'txt', include_timestamps: true, include_speakers: false }),
    );
    expect(content.split('\n\n').map((paragraph) => paragraph.slice(0, 11))).toEqual([
      '[00:00:00] ',
      '[00:00:03] ',
      '[00:00:09] ',
    ]);
    expect(content).not.toMatch(/Speaker|Alice/);
  });

  it('wraps lines at max_characters_per_line and splits paragraphs at max_segment_chars', () => {
    const content = text(
      format(MONOLOGUE, { format: 'txt', max_characters_per_line: 50, max_segment_chars: 300 }),
    );
    const paragraphs = content.trimEnd().split('\n\n');
    expect(paragraphs.length).toBeGreaterThan(3);
    for (const paragraph of paragraphs) {
      expect(paragraph.replace(/\n/g, ' ').length).toBeLessThanOrEqual(300 + 'Speaker 1: '.length);
      for (const line of paragraph.split('\n')) expect(line.length).toBeLessThanOrEqual(50);
    }
  });
});

describe('segmented_json', () => {
  it('gives segments with their text, times, speaker and words', () => {
    const parsed = JSON.parse(text(format(DIALOGUE, { format: 'segmented_json' }, NAMES)));
    expect(parsed.language_code).toBe('eng');
    expect(parsed.segments).toHaveLength(3);
    expect(parsed.segments[0]).toMatchObject({
      text: 'Hello there, how are you today?',
      start_time: 0.5,
      speaker_id: 'speaker_0',
      speaker_name: 'Alice',
    });
    expect(parsed.segments[1].speaker_name).toBeUndefined();
    expect(parsed.segments[1].words[0]).toMatchObject({ text: '(laughter)', type: 'audio_event' });
    const words = parsed.segments.flatMap((segment: { words: { text: string }[] }) => segment.words);
    expect(words.map((word: { text: string }) => word.text)).toEqual(spokenWords(DIALOGUE));
    for (const segment of parsed.segments) {
      expect(segment.end_time).toBeGreaterThan(segment.start_time);
      expect(segment.words[0].start_time).toBe(segment.start_time);
    }
  });

  it('drops times and speakers when asked', () => {
    const parsed = JSON.parse(
      text(
        format(
          DIALOGUE,
          { format: 'segmented_json', include_timestamps: false, include_speakers: false },
          NAMES,
        ),
      ),
    );
    const serialised = JSON.stringify(parsed);
    expect(serialised).not.toMatch(/start_time|end_time|speaker/);
    expect(parsed.segments[0].text).toBe('Hello there, how are you today?');
  });
});

describe('json', () => {
  it('is the transcript itself, with the speakers named', () => {
    const parsed = JSON.parse(
      text(format({ ...DIALOGUE, additional_formats: [{ content: 'x' }] }, { format: 'json' }, NAMES)),
    );
    expect(parsed.additional_formats).toBeUndefined();
    expect(parsed.text).toBe(DIALOGUE.text);
    expect(parsed.transcription_id).toBe(DIALOGUE.transcription_id);
    expect(parsed.words).toHaveLength(DIALOGUE.words.length);
    expect(parsed.words[0]).toEqual({ ...DIALOGUE.words[0], speaker_name: 'Alice' });
    const bob = parsed.words.find((word: WireWord) => word.speaker_id === 'speaker_1');
    expect(bob.speaker_name).toBeUndefined();
  });

  it('drops times with include_timestamps: false', () => {
    const parsed = JSON.parse(text(format(DIALOGUE, { format: 'json', include_timestamps: false })));
    expect(parsed.words[0]).toEqual({ text: 'Hello', type: 'word', logprob: -0.2, speaker_id: 'speaker_0' });
  });
});

describe('html', () => {
  const content = text(
    format(DIALOGUE, { format: 'html' }, { speaker_0: 'Alice <script>alert(1)</script>' }),
  );

  it('is a complete page', () => {
    expect(content.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(content).toContain('<meta charset="utf-8">');
    expect(content).toContain('<title>Transcript</title>');
    expect(content.trimEnd().endsWith('</html>')).toBe(true);
    expect(content).toContain('English · Duration 00:00:14 · 2 speakers');
  });

  it('escapes every text: only its own tags are tags', () => {
    expect(content).toContain('&lt;tea&gt;');
    expect(content).toContain('great &amp; the');
    expect(content).toContain('&quot;hot&quot;');
    expect(content).toContain('Alice &lt;script&gt;alert(1)&lt;/script&gt;:');
    expect(content).not.toContain('<script');
    const tags = new Set(content.match(/<\/?[a-zA-Z!][^>]*>/g));
    for (const tag of tags) {
      expect(tag).toMatch(
        /^<(\/?(html|head|body|main|h1|p|span|title|style)|!DOCTYPE html|meta [^<]*)( [a-z]+="[^"<]*")*>$/,
      );
    }
  });

  it('keeps non-ASCII text as it is, with times and speakers', () => {
    expect(content).toContain('<span class="time">[00:00:09]</span>');
    expect(content).toContain('Über-good. We had crème brûlée and 日本 sweets.');
    expect(content).toContain('<span class="speaker">Speaker 2:</span> (laughter)');
  });
});

describe('docx', () => {
  const docx = bytes(format(DIALOGUE, { format: 'docx' }, { ...NAMES, speaker_1: 'Bob & "Co" <x>' }));
  const parts = docxParts(docx);

  it('is an Office Open XML package', () => {
    expect(docx.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    expect(parts['[Content_Types].xml']).toContain(
      'PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"',
    );
    expect(parts['_rels/.rels']).toContain('Target="word/document.xml"');
  });

  it('writes a paragraph per segment, the speaker in bold, every text escaped', () => {
    const document = parts['word/document.xml'] ?? '';
    expect(document.match(/<w:p>/g)).toHaveLength(2 + 3);
    expect(document).toContain('<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Alice: </w:t></w:r>');
    expect(document).toContain('Bob &amp; &quot;Co&quot; &lt;x&gt;: ');
    expect(document).toContain('&lt;tea&gt; was &quot;hot&quot;.');
    expect(document).toContain('crème brûlée and 日本 sweets.');
  });

  it.skipIf(!HAS_PYTHON)("reads back through Python's zipfile and XML parser", () => {
    const lines = pythonDocxText(docx).trimEnd().split('\n');
    expect(lines[0]).toBe('Transcript');
    expect(lines.slice(2)).toEqual([
      '[00:00:00] Alice: Hello there, how are you today?',
      '[00:00:03] Bob & "Co" <x>: (laughter) Fine, thanks. The café was great & the <tea> was "hot".',
      '[00:00:09] Alice: Über-good. We had crème brûlée and 日本 sweets.',
    ]);
  });

  it('stays well-formed with control characters and broken surrogates in the words', () => {
    const odd = transcriptOf([{ text: 'bell\u0007 form\u000c feed \ud800lone ok' }]);
    const document = docxParts(bytes(format(odd, { format: 'docx' })))['word/document.xml'] ?? '';
    expect(document).toContain('bell form feed lone ok');
    const controls = [...document].filter(
      (char) => (char.codePointAt(0) ?? 0) < 32 && !'\t\n\r'.includes(char),
    );
    expect(controls).toEqual([]);
    // A lone surrogate would have been written as U+FFFD, the UTF-8 encoder's replacement.
    expect(document).not.toContain('\uFFFD');
  });

  it.skipIf(!HAS_SOFFICE)(
    'opens in LibreOffice',
    () => {
      const file = saved(docx, 'docx');
      const run = spawnSync(
        'soffice',
        [
          '--headless',
          `-env:UserInstallation=file://${scratch}/lo`,
          '--convert-to',
          'txt:Text',
          '--outdir',
          scratch,
          file,
        ],
        { encoding: 'utf8', timeout: 90_000 },
      );
      expect(run.status, run.stderr).toBe(0);
      const converted = readFileSync(file.replace(/\.docx$/, '.txt'), 'utf8');
      expect(converted).toContain('[00:00:09] Alice: Über-good. We had crème brûlée and 日本 sweets.');
      expect(converted).toContain('Bob & "Co" <x>: (laughter)');
    },
    120_000,
  );
});

describe('pdf', () => {
  const pdf = bytes(format(DIALOGUE, { format: 'pdf' }, NAMES));

  it('is a PDF 1.4 whose cross-reference table is right, its text in embedded DejaVu Sans', () => {
    const { pages, streams } = checkPdf(pdf);
    expect(pages).toBe(1);
    expect(streams[0]).toMatch(/\/F2 11 Tf 0 0 0 rg <[0-9A-F]+> Tj/);
    const { fonts } = readPdfText(pdf);
    expect(fonts.F1).toMatch(/\/Subtype \/Type0 \/BaseFont \/[A-Z]{6}\+DejaVuSans \/Encoding \/Identity-H/);
    expect(fonts.F2).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans-Bold /);
  });

  it('reads back as written, without any outside tool', () => {
    expect(readPdfText(pdf).pages).toEqual([
      [
        'Transcript',
        'English · Duration 00:00:14 · 2 speakers',
        '[00:00:00] Alice: Hello there, how are you today?',
        // Wrapped by DejaVu Sans's widths; the space that ends a line stays on it.
        '[00:00:03] Speaker 2: (laughter) Fine, thanks. The café was great & the <tea> ',
        'was "hot".',
        '[00:00:09] Alice: Über-good. We had crème brûlée and 日本 sweets.',
        'Page 1 of 1',
      ],
    ]);
  });

  it('prints Cyrillic, Greek, Arabic and accented Latin as written (issue 26 item 7: they were "?")', () => {
    const lines = [
      'Привет, как дела? Всё хорошо.',
      'Καλημέρα σας, τι κάνετε;',
      'Łódź, Ærøskøbing, őrült, Ştefan, naïve — “quoted” €5.',
      'السلام عليكم ورحمة الله',
      '日本語 and 🎉 still copy as themselves',
    ];
    const file = bytes(format(transcriptOf(lines.map((text) => ({ text, pause: 2 }))), { format: 'pdf' }));
    checkPdf(file);
    const read = readPdfText(file).pages[0] ?? [];
    for (const line of lines.filter((l) => !/[\u0600-\u06FF]/.test(l)))
      expect(
        read.some((l) => l.endsWith(line)),
        line,
      ).toBe(true);
    // Arabic is drawn right to left: the drawn line is the text reversed, its letters the ones written.
    const arabic = read.find((l) => /[\u0600-\u06FF]/.test(l)) ?? '';
    expect([...arabic.replace(/^\[[\d:]+\] /, '')].reverse().join('')).toBe('السلام عليكم ورحمة الله');
    if (HAS_PDFTOTEXT) {
      // Poppler reads a right-to-left run back in reading order (and marks it with U+202B … U+202C).
      const extracted = pdftotext(file).replace(/[\u202A-\u202E]/g, '');
      for (const line of lines) expect(extracted, line).toContain(line);
    }
    if (HAS_QPDF) {
      const run = spawnSync('qpdf', ['--check', saved(file, 'pdf')], { encoding: 'utf8' });
      expect(run.status, run.stdout + run.stderr).toBe(0);
    }
  });

  it('embeds only the glyphs it uses: a short transcript stays small', () => {
    // Two subset fonts (text and bold) with their hinting and name tables: 22 KB here, against 1.4 MB for
    // the whole DejaVu Sans and Bold.
    expect(pdf.length).toBeLessThan(30_000);
  });

  it.skipIf(!HAS_PDFTOTEXT)('reads back through pdftotext', () => {
    const read = pdftotext(pdf).replace(/\s*\n(?=\S)/g, ' ');
    expect(read).toContain('Transcript');
    expect(read).toContain('[00:00:00] Alice: Hello there, how are you today?');
    expect(read).toContain('The café was great & the <tea> was "hot".');
    expect(read).toContain('Über-good. We had crème brûlée and 日本 sweets.');
    expect(read).toContain('Page 1 of 1');
  });

  it.skipIf(!HAS_QPDF)('passes qpdf --check', () => {
    const run = spawnSync('qpdf', ['--check', saved(pdf, 'pdf')], { encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('No syntax or stream encoding errors found');
  });

  it('wraps a long transcript onto several pages, every word kept', () => {
    const long = transcriptOf(
      Array.from({ length: 12 }, (_, index) => ({ speaker: `speaker_${index % 2}`, text: STORY })),
    );
    const file = bytes(format(long, { format: 'pdf' }));
    const { pages } = checkPdf(file);
    expect(pages).toBeGreaterThan(1);
    const read = readPdfText(file).pages.flat().join('\n');
    if (HAS_PDFTOTEXT) expect(pdftotext(file)).toContain(`Page ${pages} of ${pages}`);
    expect(read).toContain(`Page ${pages} of ${pages}`);
    const words = read
      .replace(/Page \d+ of \d+/g, ' ')
      .replace(/\[\d\d:\d\d:\d\d\]|Speaker \d:/g, ' ')
      .split(/\s+/)
      .filter(
        (word) => word && word !== 'Transcript' && !/^English|^Duration|^00:|speakers$|^·$|^\d+$/.test(word),
      );
    expect(words.join(' ')).toBe(spokenWords(long).join(' '));
  });

  it('never breaks the file on odd text: controls, zero-width characters, parentheses and backslashes', () => {
    const odd = transcriptOf([{ text: 'a\u200bb (paren) back\\slash \u0007bell' }]);
    const file = bytes(format(odd, { format: 'pdf' }));
    checkPdf(file);
    expect(readPdfText(file).pages[0]).toContain('[00:00:00] ab (paren) back\\slash bell');
  });
});

describe('an empty transcript', () => {
  it.each(EXPORT_FORMATS)('gives a valid, empty %s', (name) => {
    const result = format(EMPTY, { format: name });
    switch (name) {
      case 'srt':
      case 'txt':
        expect(text(result)).toBe('');
        break;
      case 'webvtt':
        expect(text(result)).toBe('WEBVTT\n');
        break;
      case 'segmented_json':
        expect(JSON.parse(text(result))).toEqual({ language_code: 'eng', segments: [] });
        break;
      case 'json':
        expect(JSON.parse(text(result))).toMatchObject({ text: '', words: [] });
        break;
      case 'html':
        expect(text(result)).toMatch(
          /<main>\n<h1>Transcript<\/h1>\n<p class="details">English<\/p>\n\n<\/main>/,
        );
        break;
      case 'docx': {
        const document = docxParts(bytes(result))['word/document.xml'] ?? '';
        expect(document.match(/<w:p>/g)).toHaveLength(2);
        if (HAS_PYTHON) expect(pythonDocxText(bytes(result))).toBe('Transcript\nEnglish\n');
        break;
      }
      case 'pdf': {
        const file = bytes(result);
        expect(checkPdf(file).pages).toBe(1);
        if (HAS_PDFTOTEXT) expect(pdftotext(file)).toContain('Transcript');
        break;
      }
    }
  });
});

describe('speakerLabel', () => {
  it('uses the name given, else "Speaker n", else the id', () => {
    expect(speakerLabel('speaker_0', { speaker_0: ' Alice\n' })).toBe('Alice');
    expect(speakerLabel('speaker_0', { speaker_0: '  ' })).toBe('Speaker 1');
    expect(speakerLabel('speaker_11')).toBe('Speaker 12');
    expect(speakerLabel('host')).toBe('host');
  });

  it('ignores names that are not the object’s own', () => {
    expect(speakerLabel('constructor', {})).toBe('constructor');
    expect(speakerLabel('__proto__', JSON.parse('{"__proto__": "Mallory"}'))).toBe('Mallory');
    expect(speakerLabel('toString', { speaker_0: 'Alice' })).toBe('toString');
  });
});

describe('segmentation, on random transcripts', () => {
  const word = fc.stringMatching(/^[A-Za-zé日,.?]{1,14}$/);
  const turns = fc.array(
    fc.record({
      speaker: fc.constantFrom('speaker_0', 'speaker_1'),
      text: fc.array(word, { minLength: 1, maxLength: 40 }).map((words) => words.join(' ')),
      pause: fc.double({ min: 0, max: 3, noNaN: true }),
    }),
    { minLength: 1, maxLength: 8 },
  );

  it('keeps every word in order within every srt limit', () => {
    fc.assert(
      fc.property(turns, fc.integer({ min: 16, max: 60 }), (generated, width) => {
        const transcript = transcriptOf(generated);
        const cues = cuesOf(
          text(
            format(transcript, { format: 'srt', max_characters_per_line: width, include_speakers: false }),
          ),
        );
        const printed = cues.map((cue) => cue.lines.join(' ')).join(' ');
        expect(printed).toBe(spokenWords(transcript).join(' '));
        for (const cue of cues) {
          expect(cue.lines.length).toBeLessThanOrEqual(2);
          // A single word longer than the line is the only thing allowed past it.
          for (const line of cue.lines)
            if (line.includes(' ')) expect(line.length).toBeLessThanOrEqual(width);
          expect(seconds(cue.end) - seconds(cue.start)).toBeLessThanOrEqual(7.001);
        }
        for (let index = 1; index < cues.length; index += 1) {
          expect(seconds(cues[index]?.start ?? '')).toBeGreaterThanOrEqual(
            seconds(cues[index - 1]?.end ?? ''),
          );
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('any text, never a broken file', () => {
  // Any UTF-16 code unit: control characters, lone surrogates, markup characters, CJK, emoji halves.
  const anyText = fc.string({
    unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  });
  const anyWords = fc.array(
    fc.oneof(anyText, fc.constantFrom('<', '&', '"', "'", '-->', ']]>', '(', ')', '\\')),
    {
      minLength: 1,
      maxLength: 30,
    },
  );

  it('gives well-formed files in every format', () => {
    fc.assert(
      fc.property(anyWords, anyText, (tokens, name) => {
        const transcript = transcriptOf([{ speaker: 'speaker_0', text: tokens.join(' ') }]);
        const names = { speaker_0: name };
        for (const cue of cuesOf(text(format(transcript, { format: 'srt' }, names)))) {
          expect(cue.lines.length).toBeGreaterThan(0);
        }
        const vtt = text(format(transcript, { format: 'webvtt' }, names));
        expect(vtt.startsWith('WEBVTT\n')).toBe(true);
        for (const tag of vtt.match(/<[^>]*>/g) ?? []) expect(tag).toMatch(/^<v [^<>]*>$/);
        JSON.parse(text(format(transcript, { format: 'json' }, names)));
        JSON.parse(text(format(transcript, { format: 'segmented_json' }, names)));
        const html = text(format(transcript, { format: 'html' }, names));
        const body = html.slice(html.indexOf('<main>'));
        const bare = body
          .replace(/<\/?(main|h1|p|span|body|html)( class="[a-z]+")?>/g, '')
          .replace(/&(amp|lt|gt|quot|apos);/g, '');
        expect(bare).not.toMatch(/[<>&]/);
        const docx = unzipSync(new Uint8Array(bytes(format(transcript, { format: 'docx' }, names))));
        const document = Buffer.from(docx['word/document.xml'] ?? []).toString('utf8');
        const xmlText = document
          .replace(/^<\?xml [^>]*\?>\n/, '')
          .replace(/<[^<>]+>/g, '')
          .replace(/&(amp|lt|gt|quot|apos);/g, '');
        expect(xmlText).not.toMatch(/[<>&]/);
        expect([...xmlText].filter((char) => (char.codePointAt(0) ?? 0) < 32)).toEqual([]);
        checkPdf(bytes(format(transcript, { format: 'pdf' }, names)));
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
