/**
 * Realtime transcription over the WebSocket (issue 20 "Performance"), through the built server as
 * `npm start` runs it. The audio is speech the server's own engines make (three English voices), with
 * silences between sentences, streamed at real-time pace in 100 ms chunks (pcm_16000), commit_strategy vad:
 * - commit latency: from the moment the silence threshold (`vad_silence_threshold_secs`, 0.5 s and 1.5 s)
 *   has elapsed past the end of a sentence's speech (found in the samples) to its `committed_transcript`:
 *   median ≤ 400 ms;
 * - partial transcripts during speech: the gaps between `partial_transcript` messages (and from the
 *   speech's start to the first): at least every 500 ms, reported as median and p90 gap;
 * - 8 sessions at once, each 8 sentences: every session keeps up with real time — its last commit comes
 *   no later after its sentence than its first did (no growing backlog); word error rate over all.
 */

import { wordErrorRate } from '@parla/audio';
import WebSocket from 'ws';
import { PREMADE_VOICES } from '../packages/contracts/src/tts-catalog';
import { type Server, sleep, startParla } from './server';

const SENTENCES = [
  'The meeting has been moved to Thursday afternoon.',
  'Please bring the quarterly report and your laptop.',
  'We need to buy milk, bread and fresh eggs before the store closes.',
  'She finished reading the book and went to sleep early.',
  'The train to the city leaves every twenty minutes.',
  'Remember to water the plants on the balcony.',
  'The museum is closed on Mondays.',
  'He practised the piano for an hour before dinner.',
];
const RATE = 16_000;
const CHUNK_MS = 100;
const GAP_S = 2.5;
const CONCURRENT = 8;
const TARGET = { commitMs: 400, partialGapMs: 500 };

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}

/** A sentence spoken by the server (pcm_16000), and where its speech starts and ends (s). */
interface Clip {
  text: string;
  samples: Int16Array;
  speechStart: number;
  speechEnd: number;
}

async function speak(server: Server, voiceId: string, text: string): Promise<Clip> {
  const res = await fetch(
    `${server.url}/v1/text-to-speech/${voiceId}?output_format=pcm_16000&enable_logging=false`,
    {
      method: 'POST',
      headers: { 'xi-api-key': server.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ text, model_id: 'parla_v1' }),
    },
  );
  if (!res.ok) throw new Error(`TTS ${res.status}: ${await res.text()}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  const samples = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 2));
  // Speech: 10 ms frames above −40 dBFS RMS.
  const frame = RATE / 100;
  let first = -1;
  let last = -1;
  for (let i = 0; i + frame <= samples.length; i += frame) {
    let sum = 0;
    for (let j = i; j < i + frame; j++) sum += ((samples[j] as number) / 32768) ** 2;
    if (Math.sqrt(sum / frame) > 0.01) {
      if (first < 0) first = i;
      last = i + frame;
    }
  }
  return { text, samples: Int16Array.from(samples), speechStart: first / RATE, speechEnd: last / RATE };
}

interface Sent {
  /** Wall time (performance.now) at which each sentence's speech started and ended being sent. */
  speechStartAt: number[];
  speechEndAt: number[];
}

interface SessionResult {
  commits: { at: number; text: string }[];
  partials: number[];
  sent: Sent;
  errors: string[];
}

/** Streams the clips (each followed by GAP_S of silence) at real-time pace through one session. */
async function session(server: Server, clips: Clip[], thresholdS: number): Promise<SessionResult> {
  const ws = new WebSocket(
    `${server.url.replace('http', 'ws')}/v1/speech-to-text/realtime?model_id=parla_stt_v1&audio_format=pcm_16000&commit_strategy=vad&vad_silence_threshold_secs=${thresholdS}`,
    { headers: { 'xi-api-key': server.apiKey } },
  );
  const result: SessionResult = {
    commits: [],
    partials: [],
    sent: { speechStartAt: [], speechEndAt: [] },
    errors: [],
  };
  let started!: () => void;
  const sessionStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { message_type: string; text?: string; error?: string };
    const at = performance.now();
    if (message.message_type === 'session_started') started();
    else if (message.message_type === 'partial_transcript' && message.text) result.partials.push(at);
    else if (message.message_type === 'committed_transcript')
      result.commits.push({ at, text: message.text ?? '' });
    else if (message.error) result.errors.push(`${message.message_type}: ${message.error}`);
  });
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  await sessionStarted;
  const chunk = (RATE * CHUNK_MS) / 1000;
  const t0 = performance.now();
  let sentSamples = 0;
  const send = async (samples: Int16Array) => {
    for (let i = 0; i < samples.length; i += chunk) {
      const piece = samples.subarray(i, Math.min(samples.length, i + chunk));
      ws.send(
        JSON.stringify({
          message_type: 'input_audio_chunk',
          audio_base_64: Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString('base64'),
          commit: false,
          sample_rate: RATE,
        }),
      );
      sentSamples += piece.length;
      // Real-time pace: the next chunk leaves when its audio would have been recorded.
      const due = t0 + (sentSamples / RATE) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
    }
  };
  const silence = new Int16Array(Math.round(GAP_S * RATE));
  await send(silence.subarray(0, RATE / 2));
  for (const clip of clips) {
    const base = t0 + (sentSamples / RATE) * 1000;
    result.sent.speechStartAt.push(base + clip.speechStart * 1000);
    result.sent.speechEndAt.push(base + clip.speechEnd * 1000);
    await send(clip.samples);
    await send(silence);
  }
  await sleep(1000);
  ws.close();
  await closed;
  return result;
}

/** Commit latencies (ms after the threshold elapsed past each sentence's end) and partial gaps. */
function measure(result: SessionResult, thresholdS: number) {
  const latencies: number[] = [];
  const gaps: number[] = [];
  result.sent.speechEndAt.forEach((end, i) => {
    const due = end + thresholdS * 1000;
    const start = result.sent.speechStartAt[i] as number;
    const commit = result.commits.find((c) => c.at > start);
    if (commit) latencies.push(commit.at - due);
    // Partials while this sentence was spoken: from its start to the end of its speech.
    let previous = start;
    for (const at of result.partials.filter((p) => p > start && p <= end)) {
      gaps.push(at - previous);
      previous = at;
    }
  });
  return { latencies, gaps };
}

export async function run(): Promise<void> {
  const server = await startParla();
  try {
    const voices = ['Lily', 'Sarah', 'Charlie']
      .map((name) => PREMADE_VOICES.find((v) => v.name === name && v.language === 'en'))
      .filter((v) => v !== undefined);
    const clips: Clip[] = [];
    for (const [i, text] of SENTENCES.entries()) {
      const voice = voices[i % voices.length];
      if (voice) clips.push(await speak(server, voice.voice_id, text));
    }
    console.log(
      `\n## One session: ${clips.length} sentences (${voices.map((v) => v?.name).join(', ')}), ${GAP_S} s of silence after each, streamed at real-time pace in ${CHUNK_MS} ms chunks`,
    );
    for (const threshold of [0.5, 1.5]) {
      const result = await session(server, clips, threshold);
      const { latencies, gaps } = measure(result, threshold);
      const wer = wordErrorRate(SENTENCES.join(' '), result.commits.map((c) => c.text).join(' '));
      console.log(
        `vad_silence_threshold_secs ${threshold}: ${result.commits.length} commits; commit after the threshold: median ${quantile(latencies, 0.5).toFixed(0)} ms, p90 ${quantile(latencies, 0.9).toFixed(0)} ms (target median ≤ ${TARGET.commitMs}: ${verdict(quantile(latencies, 0.5) <= TARGET.commitMs)}); ` +
          `partials during speech: ${gaps.length}, gap median ${quantile(gaps, 0.5).toFixed(0)} ms, p90 ${quantile(gaps, 0.9).toFixed(0)} ms, max ${Math.max(...gaps).toFixed(0)} ms (target ≤ ${TARGET.partialGapMs}: ${verdict(quantile(gaps, 0.9) <= TARGET.partialGapMs)}); WER ${(wer * 100).toFixed(1)}%` +
          (result.errors.length ? `; errors: ${result.errors.join(', ')}` : ''),
      );
    }

    console.log(`\n## ${CONCURRENT} sessions at once, vad_silence_threshold_secs 0.5`);
    await sleep(2000);
    const results = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        sleep(i * 250).then(() =>
          session(server, [...clips.slice(i % clips.length), ...clips.slice(0, i % clips.length)], 0.5),
        ),
      ),
    );
    const all = results.map((r) => measure(r, 0.5));
    const latencies = all.flatMap((m) => m.latencies);
    const firstHalf = all.flatMap((m) => m.latencies.slice(0, Math.floor(m.latencies.length / 2)));
    const secondHalf = all.flatMap((m) => m.latencies.slice(Math.floor(m.latencies.length / 2)));
    const commits = results.reduce((n, r) => n + r.commits.length, 0);
    const errors = results.flatMap((r) => r.errors);
    const keepsUp = quantile(secondHalf, 0.5) <= quantile(firstHalf, 0.5) + 250;
    console.log(
      `${commits} of ${CONCURRENT * clips.length} sentences committed; commit after the threshold: median ${quantile(latencies, 0.5).toFixed(0)} ms, p90 ${quantile(latencies, 0.9).toFixed(0)} ms; ` +
        `first half of each session median ${quantile(firstHalf, 0.5).toFixed(0)} ms, second half ${quantile(secondHalf, 0.5).toFixed(0)} ms (keeps up, no growing backlog: ${verdict(keepsUp && commits >= CONCURRENT * clips.length * 0.9)})` +
        (errors.length ? `; errors: ${[...new Set(errors)].join(', ')}` : ''),
    );
  } finally {
    await server.stop();
  }
}
