import { describe, expect, it } from 'vitest';
import type {
  EngineSynthesisRequest,
  EngineSynthesisResult,
  TtsProvider,
} from '../../providers/tts/tts-provider';
import { speakSentences, type WordAligner } from './speech-pipeline';

/*
 * Issue 27 item 5: a neural voice's word times are the forced aligner's, not its engine's estimates
 * (decision 21: Kokoro's were 171–182 ms from the aligner's at the median). A fake engine and aligner:
 * what is checked is which times go out.
 */

const SAMPLE_RATE = 24_000;
/** One second of quiet noise per sentence, with two words estimated at 0–500 and 500–1000 ms. */
const engine = (timing: 'exact' | 'estimated'): TtsProvider => ({
  size: 1,
  async synthesize(request: EngineSynthesisRequest): Promise<EngineSynthesisResult> {
    const samples = Int16Array.from({ length: SAMPLE_RATE }, (_, i) => (i % 7) * 50);
    const space = request.text.indexOf(' ');
    return {
      sampleRate: SAMPLE_RATE,
      samples,
      timing,
      words: [
        { start: 0, end: space, startMs: 0, endMs: 500 },
        { start: space + 1, end: request.text.length, startMs: 500, endMs: 1000 },
      ],
    };
  },
});
/** Each character at 10 ms per position from 100 ms, 10 ms long. */
const aligner: WordAligner = async (_audio, text) =>
  [...text].map((_, i) => ({ start: 0.1 + i * 0.01, end: 0.11 + i * 0.01 }));

async function wordsOf(provider: TtsProvider, voice: EngineSynthesisRequest['engine'], align?: WordAligner) {
  const request = {
    text: 'Hello world.',
    voice: { engine: voice, voice: 'af_heart' },
    normalize: false,
    settings: { speed: 1, stability: 0.5, style: 0, useSpeakerBoost: false },
  };
  const out = [];
  for await (const sentence of speakSentences(provider, request, undefined, { alignWords: align }))
    out.push(...sentence.words.map((w) => [w.startMs, w.endMs]));
  return out;
}

describe('word times of a neural voice', () => {
  it('are the aligner’s, by character: "Hello" 100–150 ms, "world." 160–220 ms', async () => {
    expect(await wordsOf(engine('estimated'), 'kokoro', aligner)).toEqual([
      [100, 150],
      [160, 220],
    ]);
  });

  it('stay the engine’s when it reports exact times, for a classic engine, or when the aligner fails', async () => {
    const estimated = [
      [0, 500],
      [500, 1000],
    ];
    expect(await wordsOf(engine('exact'), 'kokoro', aligner)).toEqual(estimated);
    expect(await wordsOf(engine('estimated'), 'festival', aligner)).toEqual(estimated);
    expect(await wordsOf(engine('estimated'), 'kokoro', async () => undefined)).toEqual(estimated);
    expect(
      await wordsOf(engine('estimated'), 'kokoro', async () => {
        throw new Error('no model');
      }),
    ).toEqual(estimated);
    // Times out of order are not taken.
    expect(
      await wordsOf(engine('estimated'), 'kokoro', async (_a, text) =>
        [...text].map((_, i) => ({ start: 1 - i * 0.01, end: 1.01 - i * 0.01 })),
      ),
    ).toEqual(estimated);
  });
});
