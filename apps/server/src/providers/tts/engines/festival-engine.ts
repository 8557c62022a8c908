import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseWav } from '@parla/audio';
import {
  clamp,
  type EngineSynthesisRequest,
  type EngineSynthesisResult,
  type WordTiming,
} from '../engine-synthesis';
import { runProgram } from './process-run';

/** Festival voices from Debian: the HTS voice (the best English voice measured here) and the kal diphones. */
export const FESTIVAL_VOICES = ['cmu_us_slt_arctic_hts', 'kal_diphone'] as const;

/** A Scheme string literal of any text. */
function schemeString(text: string): string {
  return `"${text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/[\r\n]+/g, ' ')}"`;
}

/** Festival prints each token with the times of its first and last word (`T<TAB>name<TAB>start<TAB>end`). */
function script(voice: string, text: string, wavPath: string): string {
  return `(voice_${voice})
(set! utt (Utterance Text ${schemeString(text)}))
(utt.synth utt)
(utt.save.wave utt ${schemeString(wavPath)} 'riff)
(mapcar (lambda (tok)
  (if (item.daughters tok)
    (format t "T\\t%s\\t%f\\t%f\\n" (item.name tok)
      (item.feat (item.daughter1 tok) "word_start") (item.feat (item.daughtern tok) "word_end"))))
  (utt.relation.items utt 'Token))
`;
}

/** Places festival's tokens back on the input: each token is looked for after the previous one. */
export function alignTokens(text: string, output: string, stretch = 1): WordTiming[] {
  const words: WordTiming[] = [];
  let cursor = 0;
  for (const line of output.split('\n')) {
    const [tag, name, start, end] = line.split('\t');
    if (tag !== 'T' || !name) continue;
    const at = text.indexOf(name, cursor);
    if (at === -1) continue;
    cursor = at + name.length;
    words.push({
      start: at,
      end: at + name.length,
      startMs: Math.round(Number(start) * 1000 * stretch),
      endMs: Math.round(Number(end) * 1000 * stretch),
    });
  }
  // Festival reports 0 as the end of a phrase's last word: it ends where the next word starts.
  for (const [i, word] of words.entries()) {
    if (word.endMs < word.startMs) word.endMs = Math.max(word.startMs, words[i + 1]?.startMs ?? word.startMs);
  }
  return words;
}

/**
 * Festival through Debian's CLI with word times from its own utterance structure. The HTS voice ignores
 * festival's duration setting, so a rate other than 1 is applied afterwards with ffmpeg's atempo (pitch
 * unchanged) and the word times are scaled with it; pitch is not changed for festival voices.
 */
export async function synthesizeWithFestival(
  request: EngineSynthesisRequest,
): Promise<EngineSynthesisResult> {
  if (!(FESTIVAL_VOICES as readonly string[]).includes(request.voice)) {
    throw new Error(`Unknown festival voice "${request.voice}".`);
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parla-festival-'));
  try {
    const wav = path.join(dir, 'out.wav');
    const file = path.join(dir, 'script.scm');
    await fs.writeFile(file, script(request.voice, request.text, wav));
    const { stdout } = await runProgram('festival', ['--batch', file]);
    const rate = clamp(request.rate ?? 1, 0.5, 2);
    let audioPath = wav;
    if (rate !== 1) {
      audioPath = path.join(dir, 'tempo.wav');
      await runProgram('ffmpeg', [
        '-v',
        'error',
        '-i',
        wav,
        '-af',
        `atempo=${rate}`,
        '-c:a',
        'pcm_s16le',
        audioPath,
      ]);
    }
    const audio = parseWav(await fs.readFile(audioPath));
    return {
      sampleRate: audio.sampleRate,
      samples: audio.samples,
      words: alignTokens(request.text, stdout, 1 / rate),
      timing: 'exact',
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
