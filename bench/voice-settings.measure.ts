/**
 * What each voice setting does to the audio, per engine (issue 18 item 3): the same sentences spoken with
 * different settings through the speech pipeline in real engine children, measured with measureProsody
 * (pitch median and spread, duration, level and its spread, spectral centroid, presence band). Not a bench
 * (`npm run bench` runs only *.bench.ts): `npx tsx bench/voice-settings.measure.ts [engine…]`.
 */
import pino from 'pino';
import {
  type SpeechSettings,
  speakSentences,
  synthesizeSpeech,
} from '../apps/server/src/modules/tts/speech-pipeline';
import {
  partialShift,
  renditionProfile,
  similarityShare,
  timbreShift,
} from '../apps/server/src/modules/voices/speaking-voice';
import { transformVoice } from '../apps/server/src/platform/media/voice-transform';
import { EnginePool } from '../apps/server/src/providers/engines/engine-pool';
import { fliteSpeech, TEN_SECONDS_OF_TEXT } from '../apps/server/src/test/test-signals';
import { analyzeVoice, measureProsody } from '../packages/audio/src';
import type { EngineVoice } from '../packages/contracts/src/tts-catalog';

const TEXT =
  'The old lighthouse keeper climbed the stairs every evening. He lit the lamp, watched the ships, and wrote a few lines in his notebook. Nobody knew what he wrote.';

const VOICES: Record<string, EngineVoice> = {
  festival: { engine: 'festival', voice: 'cmu_us_slt_arctic_hts' },
  'flite-slt': { engine: 'flite', voice: 'slt' },
  'flite-rms': { engine: 'flite', voice: 'rms' },
  'flite-awb': { engine: 'flite', voice: 'awb' },
  'flite-kal16': { engine: 'flite', voice: 'kal16' },
  espeak: { engine: 'espeak', voice: 'en-us+f3' },
};

const BASE: SpeechSettings = { speed: 1, stability: 0.5, style: 0, useSpeakerBoost: false };
const GRID: [string, Partial<SpeechSettings>][] = [
  ['stability 1', { stability: 1 }],
  ['stability 0.5', { stability: 0.5 }],
  ['stability 0', { stability: 0 }],
  ['style 0', { style: 0 }],
  ['style 1', { style: 1 }],
  ['boost off', { useSpeakerBoost: false }],
  ['boost on', { useSpeakerBoost: true }],
];

const fixed = (value: number | null, digits = 2) => (value === null ? '—' : value.toFixed(digits));

const pool = new EnginePool({ size: 2, timeoutMs: 30_000, logger: pino({ level: 'silent' }) });
await pool.start();
try {
  const only = process.argv.slice(2);
  console.log(
    'voice        setting         pitch Hz  sd st  range st  dur s  sent.sd%  rms dB  lvl sd  centroid  presence',
  );
  for (const [name, voice] of Object.entries(VOICES)) {
    if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
    // A first call loads the engine (Festival's voice takes seconds on a busy machine).
    await pool.synthesize({ ...voice, text: 'Hello.' }, { timeoutMs: 120_000 });
    await pool.synthesize({ ...voice, text: 'Hello.' }, { timeoutMs: 120_000 });
    let reference: number[] | undefined;
    for (const [label, change] of GRID) {
      const request = { text: TEXT, voice, normalize: false, settings: { ...BASE, ...change } };
      const speech = await synthesizeSpeech(pool, request);
      // Sentence durations against stability 1's: how much the timing varies from sentence to sentence.
      const durations: number[] = [];
      for await (const s of speakSentences(pool, request)) durations.push(s.samples.length / s.sampleRate);
      reference ??= durations;
      const logRatios = durations.map((d, i) => Math.log(d / (reference?.[i] ?? d)));
      const mean = logRatios.reduce((a, b) => a + b, 0) / logRatios.length;
      const spread = Math.sqrt(logRatios.reduce((a, b) => a + (b - mean) ** 2, 0) / logRatios.length);
      const m = measureProsody({ sampleRate: speech.sampleRate, samples: speech.samples });
      console.log(
        [
          name.padEnd(12),
          label.padEnd(15),
          fixed(m.pitch.medianHz, 1).padStart(8),
          fixed(m.pitch.sdSemitones).padStart(6),
          fixed(m.pitch.rangeSemitones).padStart(9),
          fixed(m.durationSeconds).padStart(6),
          fixed(spread * 100, 1).padStart(9),
          fixed(m.level.rmsDbfs, 1).padStart(7),
          fixed(m.level.sdDb).padStart(7),
          fixed(m.spectrum.centroidHz, 0).padStart(9),
          fixed(m.spectrum.presenceDb, 1).padStart(9),
        ].join(' '),
      );
    }
  }
  // An own voice: a low man's voice (flite awb moved down) cloned on each engine, at similarity 0 … 1.
  const sample = await transformVoice(await fliteSpeech('awb', TEN_SECONDS_OF_TEXT), {
    pitchRatio: 0.72,
    formantRatio: 0.9,
  });
  const profile = analyzeVoice(sample);
  const f2 = (p: ReturnType<typeof analyzeVoice>) => p.spectralEnvelope.formantsHz?.[1] ?? Number.NaN;
  console.log(
    `\nclone profile: median ${fixed(profile.pitch.medianHz, 1)} Hz, F2 ${fixed(f2(profile), 0)} Hz`,
  );
  console.log('voice        similarity  share  pitch Hz  F2 Hz  centroid');
  for (const [name, voice] of Object.entries(VOICES)) {
    if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
    const shift = timbreShift(await renditionProfile(pool, voice), profile);
    for (const similarity of [0, 0.5, 0.75, 1]) {
      const timbre = partialShift(shift, similarityShare(similarity));
      const speech = await synthesizeSpeech(pool, {
        text: TEXT,
        voice,
        normalize: false,
        settings: BASE,
        timbre,
      });
      const heard = analyzeVoice({ sampleRate: speech.sampleRate, samples: speech.samples });
      console.log(
        [
          name.padEnd(12),
          String(similarity).padEnd(11),
          fixed(similarityShare(similarity)).padStart(5),
          fixed(heard.pitch.medianHz, 1).padStart(9),
          fixed(f2(heard), 0).padStart(6),
          fixed(heard.spectralEnvelope.spectralCentroidHz, 0).padStart(9),
        ].join(' '),
      );
    }
  }
} finally {
  await pool.stop();
}
