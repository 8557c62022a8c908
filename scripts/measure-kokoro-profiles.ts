/**
 * Measures how each Kokoro voice of the premade voices sounds on its own (issue 27 item 5): its rendition
 * saying REFERENCE_TEXT, analysed as renditionProfile does, printed as the source of
 * apps/server/src/modules/voices/kokoro-voice-profiles.ts (median pitch and formants: what voice design
 * and instant clones choose blends by). Run after a change of the Kokoro model or its phonemizer:
 *
 *     npx tsx scripts/measure-kokoro-profiles.ts > apps/server/src/modules/voices/kokoro-voice-profiles.ts
 */

import { REFERENCE_TEXT } from '../apps/server/src/modules/voices/speaking-voice';
import { synthesizeWithKokoro } from '../apps/server/src/providers/tts/engines/kokoro-engine';
import { analyzeVoice } from '../packages/audio/src';
import { PREMADE_KOKORO_VOICES } from '../packages/contracts/src';

const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;

const rows: string[] = [];
for (const voice of [...PREMADE_KOKORO_VOICES].sort()) {
  const speech = await synthesizeWithKokoro({ engine: 'kokoro', voice, text: REFERENCE_TEXT });
  const profile = analyzeVoice({ sampleRate: speech.sampleRate, samples: speech.samples });
  const formants = profile.spectralEnvelope.formantsHz;
  if (profile.pitch.medianHz === null || !formants)
    throw new Error(`${voice}: no pitch or formants measured`);
  rows.push(
    `  ${voice}: { medianHz: ${round(profile.pitch.medianHz)}, formantsHz: [${formants.map((f) => round(f, 0)).join(', ')}] },`,
  );
  console.error(rows.at(-1));
}
console.log(`import type { KokoroVoiceMeasure } from './kokoro-blends';

/**
 * How each Kokoro voice sounds on its own: its rendition saying REFERENCE_TEXT, measured once by
 * scripts/measure-kokoro-profiles.ts (median pitch in Hz; F1–F3 in Hz) and kept here, so choosing a
 * blend needs no engine. kokoro-blends.int.test.ts measures a few again and fails when the model changed.
 */
export const KOKORO_VOICE_MEASURES: Record<string, KokoroVoiceMeasure> = {
${rows.join('\n')}
};`);
