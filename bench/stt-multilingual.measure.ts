/**
 * The multilingual model (parla_stt_multilingual_v1, Whisper base; issue 29) on speech our own Kokoro
 * voices make in several languages: the language Whisper detects, the word error rate (against the text
 * spoken, case and punctuation aside) with the language detected and given, and the real-time factor of
 * the decode on one thread (the model loaded first). Run in this process the way an engine thread runs
 * it (runSttRequest). Not a bench (`npm run bench` runs only *.bench.ts):
 * `npx tsx bench/stt-multilingual.measure.ts`; figures in docs/decisions/0024-dubbing.md.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSttRequest } from '../apps/server/src/providers/stt/moonshine-engine';
import type { SttDecodeResult, SttVadResult } from '../apps/server/src/providers/stt/stt-engine-protocol';
import { synthesizeWithKokoro } from '../apps/server/src/providers/tts/engines/kokoro-engine';
import { encodeWav } from '../packages/audio/src';

const SAMPLES: { language: string; voice: string; text: string }[] = [
  {
    language: 'es',
    voice: 'ef_dora',
    text: 'Buenos días, me llamo Carlos y vivo en Madrid. Hoy vamos a hablar del tiempo y de la comida española.',
  },
  {
    language: 'fr',
    voice: 'ff_siwis',
    text: "Bonjour à tous, je m'appelle Marie et j'habite à Paris. Aujourd'hui nous allons parler de la musique française.",
  },
  {
    language: 'en',
    voice: 'af_heart',
    text: 'Good morning everyone. My name is John and I live in London. Today we are going to talk about the weather.',
  },
  {
    language: 'it',
    voice: 'if_sara',
    text: 'Buongiorno a tutti, mi chiamo Giulia e abito a Roma. Oggi parliamo della cucina italiana e del tempo.',
  },
  {
    language: 'pt',
    voice: 'pf_dora',
    text: 'Bom dia a todos, o meu nome é Ana e moro em Lisboa. Hoje vamos falar sobre a comida e o tempo.',
  },
  {
    language: 'hi',
    voice: 'hf_alpha',
    text: 'नमस्ते, मेरा नाम प्रिया है और मैं दिल्ली में रहती हूँ। आज हम मौसम के बारे में बात करेंगे।',
  },
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stt-multilingual-'));
const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{M}\p{N}']+/gu) ?? [];

/** Word error rate over Unicode words (@parla/audio's keeps ASCII only: "días" would be two words). */
function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = words(reference);
  const hyp = words(hypothesis);
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= hyp.length; j += 1)
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (ref[i - 1] === hyp[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return ref.length === 0 ? 0 : (previous[hyp.length] as number) / ref.length;
}

async function raw(samples: readonly { text: string; voice: string }[], name: string): Promise<string> {
  const pieces: Int16Array[] = [];
  let rate = 24_000;
  for (const sample of samples) {
    const spoken = await synthesizeWithKokoro({ engine: 'kokoro', voice: sample.voice, text: sample.text });
    rate = spoken.sampleRate;
    pieces.push(spoken.samples, new Int16Array(Math.round(rate * 0.6)));
  }
  const all = new Int16Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    all.set(p, at);
    at += p.length;
  }
  const wav = path.join(dir, `${name}.wav`);
  fs.writeFileSync(wav, encodeWav({ sampleRate: rate, channels: 1, samples: all }));
  const out = path.join(dir, `${name}.s16`);
  execFileSync('ffmpeg', ['-v', 'error', '-i', wav, '-ac', '1', '-ar', '16000', '-f', 's16le', '-y', out]);
  return out;
}

async function transcribe(file: string, language?: string) {
  const total = fs.statSync(file).size / 2;
  const vad = (await runSttRequest({ kind: 'vad', file, from: 0, to: total, final: true })) as SttVadResult;
  const started = performance.now();
  const decoded = (await runSttRequest({
    kind: 'decode',
    file,
    size: 'whisper-base',
    ...(language ? { language } : {}),
    segments: vad.segments,
    timestamps: 'word',
    narrowband: false,
    profile: false,
    gaps: [],
  })) as SttDecodeResult;
  const seconds = (performance.now() - started) / 1000;
  return {
    text: decoded.segments.map((s) => s.text).join(' '),
    languages: [...new Set(decoded.segments.map((s) => s.language))].join('+'),
    rtf: seconds / (total / 16_000),
    duration: total / 16_000,
  };
}

// Load the model once before timing anything.
await transcribe(await raw([SAMPLES[2] as (typeof SAMPLES)[number]], 'warm'));
for (const sample of SAMPLES) {
  const file = await raw([sample], sample.language);
  const auto = await transcribe(file);
  const given = await transcribe(file, sample.language);
  console.log(
    `${sample.language} ${auto.duration.toFixed(1)} s | detected ${auto.languages} | WER auto ${wordErrorRate(sample.text, auto.text).toFixed(3)} given ${wordErrorRate(sample.text, given.text).toFixed(3)} | RTF ${auto.rtf.toFixed(3)} | ${auto.text}`,
  );
}
// Longer recordings, several windows of ≤ 28 s: Spanish only, then Spanish, French and English in turn
// (Whisper detects one language per window, so a window that changes language is heard in one of them).
const SPANISH = [
  SAMPLES[0],
  {
    language: 'es',
    voice: 'em_alex',
    text: 'El tren sale de la estación a las ocho y llega a Sevilla antes del mediodía.',
  },
  {
    language: 'es',
    voice: 'ef_dora',
    text: 'Mi hermana trabaja en un hospital y los fines de semana le gusta leer novelas.',
  },
] as (typeof SAMPLES)[number][];
for (const [name, long] of [
  ['spanish', [...SPANISH, ...SPANISH]],
  ['mixed', [0, 1, 2, 0, 1, 2].map((i) => SAMPLES[i] as (typeof SAMPLES)[number])],
] as const) {
  const heard = await transcribe(await raw(long, name));
  console.log(
    `${name} ${heard.duration.toFixed(1)} s | detected ${heard.languages} | WER ${wordErrorRate(long.map((s) => s.text).join(' '), heard.text).toFixed(3)} | RTF ${heard.rtf.toFixed(3)}`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
