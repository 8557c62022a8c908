import type { DubbingTranscript, DubbingTranscriptFormat } from '@parla/contracts';
import { AppError } from '../../platform/errors';
import type { DubbingDeps } from './dubbing.deps';
import { toSrt, toWebVtt } from './dubbing.media';
import { listSegmentLanguages, listSegments, listSpeakers } from './dubbing.store';
import type { DubRow } from './dubbing.tables';

/** A dub's transcripts (issue 29: "transcripts (srt, webvtt, json) for source and targets"). */

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The transcript of `language` (the source or a target) in `format`. */
export async function transcriptOf(
  deps: Pick<DubbingDeps, 'db'>,
  dub: DubRow,
  language: string,
  format: DubbingTranscriptFormat,
): Promise<{ contentType: string; body: string; json: DubbingTranscript }> {
  const source = dub.sourceLanguage ?? dub.sourceLangRequested;
  const isSource = language === source;
  if (!isSource && !dub.targetLanguages.includes(language))
    throw new AppError('resource_not_found', `This dub has no transcript in "${language}".`);
  const segments = await listSegments(deps.db, dub.id);
  if (segments.length === 0)
    throw new AppError(
      'transcript_not_ready',
      'The dub has not been transcribed yet: try again once it is dubbed.',
    );
  const speakers = await listSpeakers(deps.db, dub.id);
  const nameOf = new Map(speakers.map((s) => [s.id, s.name]));
  const rows = isSource
    ? []
    : (await listSegmentLanguages(deps.db, dub.id)).filter((r) => r.language === language);
  const textOf = new Map(rows.map((r) => [r.segmentId, r]));
  const cues = segments
    .map((s) => {
      const row = textOf.get(s.id);
      return {
        startSec: row?.startTime ?? s.startTime,
        endSec: row?.endTime ?? s.endTime,
        text: isSource ? s.text : (row?.text ?? ''),
        speaker: nameOf.get(s.speakerId) ?? '',
        speakerId: s.speakerId,
        words: isSource ? s.words : [],
      };
    })
    .filter((c) => c.text.trim() !== '');
  const json: DubbingTranscript = {
    language,
    utterances: cues.map((c) => ({
      text: c.text,
      speaker_id: c.speakerId,
      start_s: round(c.startSec),
      end_s: round(c.endSec),
      words: (c.words.length > 0 ? c.words : spreadWords(c.text, c.startSec, c.endSec)).map((w) => ({
        text: w.text,
        word_type: 'word',
        start_s: round(w.start),
        end_s: round(w.end),
        characters: [],
      })),
    })),
  };
  if (format === 'srt') return { contentType: 'text/plain; charset=utf-8', body: toSrt(cues), json };
  if (format === 'webvtt') return { contentType: 'text/vtt; charset=utf-8', body: toWebVtt(cues), json };
  return { contentType: 'application/json', body: JSON.stringify(json), json };
}

/** Word times of a translated text: its words spread over the segment by length (no recogniser heard them). */
function spreadWords(text: string, start: number, end: number) {
  const words = text.split(/\s+/).filter(Boolean);
  const total = words.reduce((n, w) => n + w.length + 1, 0) || 1;
  let at = start;
  return words.map((w) => {
    const length = ((w.length + 1) / total) * (end - start);
    const word = { text: w, start: at, end: at + length };
    at += length;
    return word;
  });
}
