/**
 * Instant voice cloning and speech to speech through the real server (issue 7 "Done when"), built and
 * started as `npm start` runs it:
 * - three sample voices of different pitch (a bass ~88 Hz, a tenor ~158 Hz, a high woman's voice
 *   ~213 Hz: flite's awb and slt moved with rubberband, 10 s each, sent as WAV to `POST /v1/voices/add`);
 *   speech generated with each clone has a median pitch within 15 % of its sample's, and speech from the
 *   premade voice the clone is built on (the baseline, measured in the same run) does not — on the
 *   classic engine the clone's base speaks (`parla_v1`) and on Kokoro (`parla_neural_v1`: the blend
 *   nearest the sample, issue 27 item 5), each with its formant distance to the sample (F2·F3);
 * - speech to speech of each sample into its clone and into a premade voice keeps the input's duration
 *   within 5 %.
 * Median pitch is measured by the server's own analysis (analyzeVoice, YIN) on the decoded audio.
 */

import { baseVoiceFor } from '../apps/server/src/modules/voices/speaking-voice';
import { decodeToPcm } from '../apps/server/src/platform/media/decode-audio';
import { transformVoice } from '../apps/server/src/platform/media/voice-transform';
import { fliteSpeech, TEN_SECONDS_OF_TEXT } from '../apps/server/src/test/test-signals';
import { analyzeVoice, encodeWav, type PcmAudio } from '../packages/audio/src';
import { PREMADE_VOICES } from '../packages/contracts/src/tts-catalog';
import { type Server, startParla } from './server';

const PITCH_TOLERANCE = 0.15;
const DURATION_TOLERANCE = 0.05;
/** What the clones say: words the samples do not contain. */
const TEXT =
  'Our neighbours painted their front door a bright shade of yellow last weekend. The museum is closed on Mondays, but the garden stays open until sunset.';

const SAMPLES = [
  { name: 'bass', flite: 'awb', pitchRatio: 0.7, formantRatio: 0.92 },
  { name: 'tenor', flite: 'awb', pitchRatio: 1.25, formantRatio: 1.03 },
  { name: 'high', flite: 'slt', pitchRatio: 1.3, formantRatio: 1.08 },
] as const;

const medianOf = (pcm: PcmAudio) => analyzeVoice(pcm).pitch.medianHz ?? Number.NaN;
const seconds = (pcm: PcmAudio) => pcm.samples.length / pcm.sampleRate;
const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

async function post(server: Server, path: string, body: FormData | object): Promise<Buffer> {
  const form = body instanceof FormData;
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'xi-api-key': server.apiKey, ...(form ? {} : { 'content-type': 'application/json' }) },
    body: form ? body : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  console.error(`${new Date().toISOString()} ${path}: HTTP ${response.status}`);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${bytes.toString()}`);
  return bytes;
}

const decode = (bytes: Buffer) => decodeToPcm(bytes, { sampleRate: 16_000, maxSeconds: 120 });

async function speak(server: Server, voiceId: string, model = 'eleven_multilingual_v2'): Promise<PcmAudio> {
  return decode(await post(server, `/v1/text-to-speech/${voiceId}`, { text: TEXT, model_id: model }));
}

/** The vocal-tract size of a voice (the geometric mean of F2 and F3, as formantScale reads it), in Hz. */
const tractOf = (pcm: PcmAudio) => {
  const f = analyzeVoice(pcm).spectralEnvelope.formantsHz;
  return f ? Math.sqrt(f[1] * f[2]) : Number.NaN;
};

async function convert(server: Server, voiceId: string, wav: Buffer): Promise<PcmAudio> {
  const form = new FormData();
  form.append('audio', new Blob([wav], { type: 'audio/wav' }), 'sample.wav');
  form.append('model_id', 'eleven_multilingual_sts_v2');
  return decode(await post(server, `/v1/speech-to-speech/${voiceId}`, form));
}

export async function run(): Promise<void> {
  const server = await startParla();
  let failed = false;
  try {
    const pitchRows: string[] = [];
    const durationRows: string[] = [];
    const premadeTarget = PREMADE_VOICES.find((v) => v.name === 'Sarah')?.voice_id ?? '';
    for (const sample of SAMPLES) {
      const source = await fliteSpeech(sample.flite, TEN_SECONDS_OF_TEXT);
      const pcm = await transformVoice(source, {
        pitchRatio: sample.pitchRatio,
        formantRatio: sample.formantRatio,
      });
      const wav = encodeWav(pcm);
      const sampleHz = medianOf(pcm);
      const form = new FormData();
      form.append('name', `Bench ${sample.name}`);
      form.append('files', new Blob([wav], { type: 'audio/wav' }), `${sample.name}.wav`);
      const { voice_id: cloneId } = JSON.parse((await post(server, '/v1/voices/add', form)).toString()) as {
        voice_id: string;
      };
      const base = baseVoiceFor(analyzeVoice(pcm).pitch.medianHz, 'en');
      const sampleTract = tractOf(pcm);
      const baseHz = medianOf(await speak(server, base.voice_id, 'parla_v1'));
      const baseError = Math.abs(baseHz / sampleHz - 1);
      const cells: string[] = [];
      let ok = baseError > PITCH_TOLERANCE;
      for (const model of ['parla_v1', 'parla_neural_v1']) {
        const speech = await speak(server, cloneId, model);
        const cloneHz = medianOf(speech);
        const cloneError = Math.abs(cloneHz / sampleHz - 1);
        const tractError = Math.abs(tractOf(speech) / sampleTract - 1);
        ok &&= cloneError <= PITCH_TOLERANCE;
        cells.push(`${cloneHz.toFixed(0)} Hz (${pct(cloneError)}), F2·F3 ${pct(tractError)} off`);
      }
      failed ||= !ok;
      pitchRows.push(
        `| ${sample.name} | ${sampleHz.toFixed(0)} Hz | ${cells.join(' | ')} | ${base.name} ${baseHz.toFixed(0)} Hz (${pct(baseError)}) | ${verdict(ok)} |`,
      );
      for (const [target, id] of [
        ['its clone', cloneId],
        ['Sarah (premade)', premadeTarget],
      ] as const) {
        const out = await convert(server, id, wav);
        const error = Math.abs(seconds(out) / seconds(pcm) - 1);
        const durationOk = error <= DURATION_TOLERANCE;
        failed ||= !durationOk;
        durationRows.push(
          `| ${sample.name} → ${target} | ${seconds(pcm).toFixed(2)} s | ${seconds(out).toFixed(2)} s (${pct(error)}) | ${verdict(durationOk)} |`,
        );
      }
    }
    console.log(
      `\nMedian pitch of speech from each clone vs its sample (target: clone within ${pct(PITCH_TOLERANCE)}, base voice not)`,
    );
    console.log(
      '| sample | sample median | clone speaks, classic (parla_v1) | clone speaks, Kokoro (parla_neural_v1) | base voice speaks, classic (baseline) | |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const row of pitchRows) console.log(row);
    console.log(`\nSpeech to speech keeps the input's duration (target: within ${pct(DURATION_TOLERANCE)})`);
    console.log('| conversion | input | output | |');
    console.log('|---|---|---|---|');
    for (const row of durationRows) console.log(row);
  } finally {
    await server.stop();
  }
  if (failed) process.exitCode = 1;
}
