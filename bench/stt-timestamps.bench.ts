/**
 * Word timestamps of speech to text (issue 19 "Performance": median absolute boundary error ≤ 80 ms on TTS
 * output with known word times). Five read sentences (numbers, currency, contractions, pauses) spoken by
 * five English TTS voices whose word times are exact (Festival's HTS slt from its utterance structure;
 * flite's slt, awb, rms and kal16 from their phone times, alignment-test-speech.ts), 16 kHz as the
 * speech-to-text pipeline hands segments to the aligner. Each sentence is one segment.
 * - the alignment (alignWords: eSpeak reading + MFCC + banded DTW): median and p90 absolute error of the
 *   word starts and ends, per voice and in all;
 * - the baseline in the same run: the naive even split of the segment by character count;
 * - the alignment's CPU per second of audio (this process's user + system time around alignWords: the
 *   eSpeak reading runs in it), target ≤ 0.05 s (the whole transcription must stay ≥ 8× real time on 2
 *   cores).
 */

import {
  ALIGNMENT_SAMPLE_RATE,
  alignWords,
  evenSplit,
} from '../apps/server/src/providers/stt/word-alignment';
import {
  ALIGNMENT_SENTENCES,
  boundaryErrors,
  KNOWN_VOICES,
  type KnownSpeech,
  knownSpeech,
  quantile,
} from '../apps/server/src/test/alignment-test-speech';

const ms = (seconds: number) => `${Math.round(seconds * 1000)} ms`.padStart(7);
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

export async function run(): Promise<void> {
  const speech: KnownSpeech[] = [];
  for (const voice of KNOWN_VOICES)
    for (const text of ALIGNMENT_SENTENCES) speech.push(await knownSpeech(voice, text));
  // One reading first: eSpeak's module loads once per process (~0.1 s), not per segment.
  await alignWords(speech[0]?.samples ?? new Float32Array(16_000), ['warm', 'up'], { characters: false });

  const aligned: number[] = [];
  const naive: number[] = [];
  let cpuSeconds = 0;
  let audioSeconds = 0;
  let words = 0;
  console.log('voice           words  aligned median  p90      even split median  p90');
  for (const voice of KNOWN_VOICES) {
    const mine: number[] = [];
    const theirs: number[] = [];
    for (const s of speech.filter((x) => x.voice === voice)) {
      const seconds = s.samples.length / ALIGNMENT_SAMPLE_RATE;
      const before = process.cpuUsage();
      const result = await alignWords(s.samples, s.words, { characters: true });
      const used = process.cpuUsage(before);
      cpuSeconds += (used.user + used.system) / 1e6;
      audioSeconds += seconds;
      words += s.words.length;
      mine.push(...boundaryErrors(result.words, s.truth));
      theirs.push(...boundaryErrors(evenSplit(s.words, 0, seconds), s.truth));
    }
    aligned.push(...mine);
    naive.push(...theirs);
    console.log(
      `${voice.padEnd(15)} ${String(mine.length / 2).padStart(5)}  ${ms(quantile(mine, 0.5))}  ${ms(quantile(mine, 0.9))}      ${ms(quantile(theirs, 0.5))}  ${ms(quantile(theirs, 0.9))}`,
    );
  }
  const median = quantile(aligned, 0.5);
  const naiveMedian = quantile(naive, 0.5);
  console.log(
    `${'all'.padEnd(15)} ${String(words).padStart(5)}  ${ms(median)}  ${ms(quantile(aligned, 0.9))}      ${ms(naiveMedian)}  ${ms(quantile(naive, 0.9))}`,
  );
  console.log(
    `median boundary error ${ms(median).trim()} (target ≤ 80 ms): ${verdict(median <= 0.08)}; ` +
      `even split ${ms(naiveMedian).trim()}, ratio ${(median / naiveMedian).toFixed(2)}`,
  );
  const perSecond = cpuSeconds / audioSeconds;
  console.log(
    `alignment CPU ${perSecond.toFixed(4)} s per second of audio over ${audioSeconds.toFixed(1)} s ` +
      `(target ≤ 0.05): ${verdict(perSecond <= 0.05)}`,
  );
}

// Alone (`npx tsx bench/stt-timestamps.bench.ts`): Festival's long-lived process would keep it running.
if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
