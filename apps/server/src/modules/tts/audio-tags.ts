import {
  type AudioTag,
  type AudioTagEffect,
  type AudioTagKind,
  type NormalizedSegment,
  type NormalizedText,
  splitSentences,
  trimRange,
} from '@parla/audio';
import { findBracketedTags } from '@parla/contracts';

/**
 * v3 audio tags (text-to-speech issue, "v3 models"): for a model with `reads_audio_tags` (`parla_tags_v1`,
 * and `eleven_v3`, its public alias), a [bracketed] tag is read, never spoken, and mapped onto what the
 * engines can honestly do.
 *
 * Reading (history §5 "Dialogue"): a tag is a balanced bracket group on one line — nested brackets belong
 * to the group (`[[whispers]]` is one tag), a newline ends the chance of a group (`[whis⏎pers]` is text).
 * Tags written next to each other with only spaces between them form one run; the run takes the spaces
 * around it with it, and becomes one space in the spoken text when it stands between two words (`Hello
 * [laughs] there` → `Hello there`), nothing at the start or end of the text or before punctuation.
 *
 * Scope: a pause is silence where the tag stands. Any other tag holds from where it stands to the end of
 * its sentence (a tag before a sentence holds for that whole sentence); a later tag in the same sentence
 * replaces only the settings it names, so `[whispers] I have [slowly] a secret` whispers throughout and
 * slows down from "a secret", and `[laughs]` in the middle leaves a whisper alone. A tag after the last
 * word of its sentence keeps its pause and changes nothing else. A tag inside a sentence that adds a
 * pause or changes the delivery splits it there: the two parts are spoken as two phrases (the engine's
 * phrase-final silence then comes on top of the pause); one that changes nothing leaves it whole.
 *
 * Alignment: the tag's written characters stay in `alignment`, with no duration, at the point in the audio
 * where they stand; `normalized_alignment` holds the spoken text only. Credits stay the characters sent.
 */

interface AudioTagRule {
  names: readonly string[];
  kind: AudioTagKind;
  effect: AudioTagEffect;
}

/**
 * The mapping, in one place. Non-verbal sounds (laughing, sighing…) cannot be produced honestly by these
 * engines — saying "ha ha" or playing a stock sample would be worse than nothing — so they are dropped,
 * without a pause, as unknown tags are. Measured on the real engines in speech-pipeline.test.ts.
 */
export const AUDIO_TAG_RULES: readonly AudioTagRule[] = [
  { names: ['short pause'], kind: 'pause', effect: { pauseMs: 250 } },
  { names: ['pause', 'break'], kind: 'pause', effect: { pauseMs: 500 } },
  { names: ['long pause'], kind: 'pause', effect: { pauseMs: 1000 } },
  {
    names: ['whispers', 'whispering', 'whisper', 'whispered'],
    kind: 'delivery',
    effect: { gainDb: -12, whisper: true },
  },
  {
    names: ['shouts', 'shouting', 'shout', 'yells', 'yelling'],
    kind: 'delivery',
    effect: { gainDb: 6, pitch: 1.1, range: 1.3, whisper: false },
  },
  {
    names: ['excited', 'excitedly'],
    kind: 'delivery',
    effect: { gainDb: 3, rate: 1.1, pitch: 1.08, range: 1.5, whisper: false },
  },
  {
    names: ['happy', 'happily', 'cheerfully'],
    kind: 'delivery',
    effect: { gainDb: 2, rate: 1.05, pitch: 1.05, range: 1.3, whisper: false },
  },
  { names: ['slowly', 'slow'], kind: 'delivery', effect: { rate: 0.8 } },
  { names: ['fast', 'quickly', 'rushed'], kind: 'delivery', effect: { rate: 1.25 } },
  {
    names: [
      'laughs',
      'laughing',
      'laugh',
      'chuckles',
      'giggles',
      'sighs',
      'sigh',
      'exhales',
      'inhales',
      'gasps',
      'gulps',
      'coughs',
      'clears throat',
      'sniffs',
      'snorts',
      'groans',
      'yawns',
      'crying',
      'sobs',
    ],
    kind: 'non_verbal',
    effect: {},
  },
];

/** The most silence one run of tags adds (the public API caps a break at 3 s). */
export const MAX_PAUSE_MS = 3000;

const RULES_BY_NAME = new Map(AUDIO_TAG_RULES.flatMap((rule) => rule.names.map((name) => [name, rule])));

/** Looks a tag's inner text up in the table; anything else is `unknown`. */
export function readAudioTag(inner: string): Pick<AudioTag, 'name' | 'kind' | 'effect'> {
  const name = inner
    .toLowerCase()
    .replace(/[[\]_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const rule = RULES_BY_NAME.get(name);
  return rule ? { name, kind: rule.kind, effect: rule.effect } : { name, kind: 'unknown', effect: {} };
}

/** Every tag of a text, in order (the bracket rule of `findBracketedTags`, shared with the web app). */
export function findAudioTags(text: string): AudioTag[] {
  return findBracketedTags(text).map(({ start, end }) => ({
    start,
    end,
    ...readAudioTag(text.slice(start + 1, end - 1)),
  }));
}

const HORIZONTAL_SPACE = /[ \t\u00a0]/;
const ONLY_HORIZONTAL_SPACE = /^[ \t\u00a0]*$/;
/** After these, a run of tags leaves nothing in the spoken text (`Hello [laughs].` → `Hello.`). */
const CLOSING = /[\s.,!?;:…)\]}"'”’»]/;

/** Tags with only spaces between them, with the spaces around them: one segment of the text. */
function tagRuns(text: string): NormalizedSegment[] {
  const runs: { start: number; end: number; tags: AudioTag[] }[] = [];
  for (const tag of findAudioTags(text)) {
    const previous = runs.at(-1);
    if (previous && ONLY_HORIZONTAL_SPACE.test(text.slice(previous.end, tag.start))) {
      previous.end = tag.end;
      previous.tags.push(tag);
    } else runs.push({ start: tag.start, end: tag.end, tags: [tag] });
  }
  return runs.map((run) => {
    let { start, end } = run;
    while (start > 0 && HORIZONTAL_SPACE.test(text[start - 1] ?? '')) start -= 1;
    while (end < text.length && HORIZONTAL_SPACE.test(text[end] ?? '')) end += 1;
    const between = start > 0 && end < text.length && !/\s/.test(text[start - 1] ?? '');
    const spoken = between && !CLOSING.test(text[end] ?? '') ? ' ' : '';
    return { start, end, spoken, tags: run.tags };
  });
}

/**
 * The spoken text of a v3 request: each tag run becomes a segment (spoken as one space or nothing) that
 * carries its tags; the text between runs is normalised by `normalizePiece` (English or as written).
 */
export function normalizeAudioTags(
  text: string,
  normalizePiece: (piece: string) => NormalizedText,
): NormalizedText {
  const segments: NormalizedSegment[] = [];
  let at = 0;
  const addText = (end: number) => {
    if (end <= at) return;
    for (const segment of normalizePiece(text.slice(at, end)).segments)
      segments.push({ ...segment, start: segment.start + at, end: segment.end + at });
  };
  for (const run of tagRuns(text)) {
    addText(run.start);
    segments.push(run);
    at = run.end;
  }
  addText(text.length);
  return { text: segments.map((s) => s.spoken).join(''), segments };
}

/** A stretch of a sentence spoken in one engine call, with the tags' effects in force. */
export interface SpeechPiece {
  /** Offsets in the normalised text. */
  start: number;
  end: number;
  delivery: Omit<AudioTagEffect, 'pauseMs'>;
  /** Silence before this piece, in ms. */
  pauseBeforeMs: number;
}

/** How one sentence of splitSentences() is spoken. */
export interface SentencePlan {
  start: number;
  end: number;
  pieces: SpeechPiece[];
  /** Silence after the sentence's last piece, in ms. */
  pauseAfterMs: number;
}

const hasWords = (text: string, from: number, to: number) =>
  from < to && /[\p{L}\p{N}]/u.test(text.slice(from, to));

/**
 * The sentences of a normalised text, each cut into pieces at the tags inside it (see the scope rule
 * above). Without tags, every sentence is one piece with no effect: the speech of any other model.
 */
export function planSentences(normalized: NormalizedText): SentencePlan[] {
  const text = normalized.text;
  const runs: { at: number; tags: AudioTag[] }[] = [];
  let at = 0;
  for (const segment of normalized.segments) {
    if (segment.tags) runs.push({ at, tags: segment.tags });
    at += segment.spoken.length;
  }
  const sentences = splitSentences(text);
  let next = 0;
  return sentences.map((sentence, index) => {
    const last = index === sentences.length - 1;
    const pieces: SpeechPiece[] = [];
    let delivery: SpeechPiece['delivery'] = {};
    let pauseBeforeMs = 0;
    let pauseAfterMs = 0;
    let pieceStart = sentence.start;
    // A run belongs to the sentence it precedes or stands in; the last sentence takes the rest.
    for (; next < runs.length && (last || (runs[next]?.at ?? 0) < sentence.end); next += 1) {
      const run = runs[next] as { at: number; tags: AudioTag[] };
      const pauseMs = Math.min(
        MAX_PAUSE_MS,
        run.tags.reduce((sum, tag) => sum + (tag.effect.pauseMs ?? 0), 0),
      );
      let change: SpeechPiece['delivery'] = {};
      for (const { effect } of run.tags) {
        const { pauseMs: _pause, ...rest } = effect;
        change = { ...change, ...rest };
      }
      const changes =
        pauseMs > 0 ||
        (Object.keys(change) as (keyof typeof change)[]).some((key) => change[key] !== delivery[key]);
      // A tag that changes nothing (non-verbal, unknown, repeated) leaves the sentence whole.
      if (!changes) continue;
      if (!hasWords(text, pieceStart, run.at)) {
        // Before the piece's first word: holds for the whole piece.
        delivery = { ...delivery, ...change };
        pauseBeforeMs += pauseMs;
      } else if (!hasWords(text, run.at, sentence.end)) {
        pauseAfterMs += pauseMs;
      } else {
        pieces.push({ ...trimRange(text, pieceStart, run.at), delivery, pauseBeforeMs });
        pieceStart = run.at;
        delivery = { ...delivery, ...change };
        pauseBeforeMs = pauseMs;
      }
    }
    pieces.push({ ...trimRange(text, pieceStart, sentence.end), delivery, pauseBeforeMs });
    return { start: sentence.start, end: sentence.end, pieces, pauseAfterMs };
  });
}

/** The eSpeak-NG whisper variant of a voice (`en-us+f3` → `en-us+whisperf`, `de+m3` → `de+whisper`). */
export function whisperVariant(voice: string): string {
  const [language, variant] = voice.split('+');
  return `${language}+${variant?.startsWith('f') ? 'whisperf' : 'whisper'}`;
}

/** The loudest sample speaker boost allows: −1 dBFS. */
const CEILING = 32767 * 10 ** (-1 / 20);

/** Applies a gain in dB; above 0 dB a soft limiter (tanh) keeps every peak below −1 dBFS. */
export function applyGain(samples: Int16Array, gainDb: number): Int16Array {
  const gain = 10 ** (gainDb / 20);
  if (gain <= 1) return samples.map((s) => Math.round(s * gain));
  return samples.map((s) => Math.round(CEILING * Math.tanh((gain * s) / CEILING)));
}
