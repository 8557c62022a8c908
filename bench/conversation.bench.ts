/**
 * The conversation socket (issue 28 "Performance"), through the built server as `npm start` runs it, with a
 * client that behaves as a microphone: 100 ms chunks of 16 kHz PCM sent in real time, silence (a faint
 * noise floor) when the user says nothing, pings answered.
 * - Voice-to-voice latency: the user asks a spoken question (Flite's `slt`, 16 kHz) and the agent (the
 *   default voice and model: Sarah, neural Kokoro) answers with the scripted local LLM, which answers at
 *   once. Measured from the end of the user's speech in the input audio (the time its last speech sample
 *   was "captured": the stream's start plus its position; the chunk holding it is sent when the chunk is
 *   complete, as a microphone would) to the first `audio` event of the answer. Median and p95 over the turns
 *   of one conversation (targets ≤ 800 / ≤ 1,200 ms); p95 with 4 conversations at once (target ≤ 2,000 ms).
 *   The breakdown per turn, from what the client and the scripted LLM observe: silence (speech end →
 *   `vad_score` 0, when the detector has heard 0.2 s of silence and the session starts transcribing), → text
 *   (→ `user_transcript`: the turn ends at 0.4 s of silence, its transcript ready by then or soon after),
 *   to the LLM (→ the scripted LLM receives the request), first piece spoken and sent (→ first `audio`).
 * - The same with Piper (Ryan, `parla_neural_fast_v1`), the fast neural voice: no target, printed to show
 *   what the engine's first audio costs.
 * - The same with the embedded LLM (LLM_PROVIDER=embedded, the model store's Qwen2.5-Coder 0.5B), a second
 *   server, printed beside it (no target). BENCH_CONVAI_EMBEDDED=0 leaves it out; BENCH_CONVAI_ONLY=embedded
 *   runs it alone.
 * - Barge-in: while the agent speaks a long answer the user starts to speak: time from the onset of the
 *   user's speech in the input audio to the `interruption` event (target ≤ 300 ms), and no `audio` of the
 *   interrupted answer (an older event_id) after it.
 * Baseline in the same run: the agent's voice speaking the answer's first sentence over HTTP
 * (`POST /v1/text-to-speech/{voice}`, pcm_16000, the agent's model), timed to the whole body, since the
 * conversation speaks a sentence whole before it sends it; between the turns, alternating with them.
 */
import os from 'node:os';
import { type PcmAudio, Resampler, seededRandom } from '@parla/audio';
import WebSocket from 'ws';
import { firstPieceLength } from '../apps/server/src/modules/tts/first-piece';
import { lastUserText, type ScriptedLlm, startScriptedLlm } from '../apps/server/src/test/scripted-llm';
import { premadeVoiceId } from '../apps/server/src/test/speech-fixtures';
import { fliteSpeech } from '../apps/server/src/test/test-signals';
import { AGENT_CONFIG_DEFAULTS } from '../packages/contracts/src/agents';
import { type Server, sleep, startParla } from './server';

const RATE = 16_000;
const CHUNK = RATE / 10; // 100 ms
const TURNS = Number(process.env.BENCH_CONVAI_TURNS ?? 12);
const WARMUP = 2;
const CONCURRENT = 4;
const CONCURRENT_TURNS = 5;
const BARGE_INS = Number(process.env.BENCH_CONVAI_BARGE_INS ?? 6);
const EMBEDDED_TURNS = Number(process.env.BENCH_CONVAI_EMBEDDED_TURNS ?? 6);
const PIPER_TURNS = Number(process.env.BENCH_CONVAI_PIPER_TURNS ?? 8);
const TARGET = { median: 800, p95: 1200, concurrentP95: 2000, bargeIn: 300 };

/** The questions asked in turn, and the scripted model's answer to each (one or two sentences). */
const QUESTIONS: [question: string, answer: string][] = [
  ['What time do you open in the morning?', 'We open at nine in the morning. We close at six.'],
  ['Can I return something I bought last week?', 'Yes, you can return it within thirty days.'],
  ['Do you deliver to the city centre?', 'We deliver everywhere in the city. It takes two days.'],
  ['How much does the delivery cost?', 'Delivery costs five euros. It is free above fifty.'],
];
const LONG_ANSWER = Array.from(
  { length: 14 },
  (_, i) => `This is sentence number ${i + 1} of a long answer about our shop.`,
).join(' ');
const STOP = 'Wait, stop, I have another question.';

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const ms = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(0)} ms`);
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Speech and where it is in its samples: the first and last sample of the voice (not the silence). */
interface Utterance {
  text: string;
  samples: Int16Array;
  onset: number;
  end: number;
}

/** Where the voice starts and ends: the first and last 10 ms window whose RMS is above -40 dBFS. */
function speechBounds(samples: Int16Array): { onset: number; end: number } {
  const window = RATE / 100;
  const floor = 32768 * 10 ** (-40 / 20);
  let onset = -1;
  let end = -1;
  for (let at = 0; at + window <= samples.length; at += window) {
    let sum = 0;
    for (let i = at; i < at + window; i++) sum += (samples[i] as number) ** 2;
    if (Math.sqrt(sum / window) > floor) {
      if (onset < 0) onset = at;
      end = at + window;
    }
  }
  return { onset: Math.max(0, onset), end: Math.max(0, end) };
}

async function speech(text: string): Promise<Utterance> {
  const spoken: PcmAudio = await fliteSpeech('slt', text);
  let samples = spoken.samples;
  if (spoken.sampleRate !== RATE) {
    const resampler = new Resampler(spoken.sampleRate, RATE);
    const head = resampler.push(samples);
    const tail = resampler.flush();
    samples = new Int16Array(head.length + tail.length);
    samples.set(head);
    samples.set(tail, head.length);
  }
  return { text, samples, ...speechBounds(samples) };
}

type Message = Record<string, unknown> & { type: string; at: number };

/**
 * A conversation seen from a client with a live microphone: chunk k of the input holds the audio captured
 * in [t0 + 100·k, t0 + 100·(k+1)) ms and is sent at the end of that interval (the clock corrects the
 * timer's drift); what is queued with `say` goes out in place of the silence.
 */
class Microphone {
  readonly messages: Message[] = [];
  private queue: Int16Array[] = [];
  private t0 = 0;
  private chunk = 0;
  private running = true;
  private readonly noise = seededRandom(7);
  /** How late chunks went out against their schedule, ms (the bench's own timer lag). */
  readonly lateness: number[] = [];
  readonly closed: Promise<void>;
  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.on('message', (data) => {
      const message: Message = {
        ...(JSON.parse(data.toString()) as Record<string, unknown> & { type: string }),
        at: performance.now(),
      };
      this.messages.push(message);
      if (message.type === 'ping')
        ws.send(
          JSON.stringify({ type: 'pong', event_id: (message.ping_event as { event_id: number }).event_id }),
        );
    });
  }

  static async open(server: Server, agentId: string): Promise<Microphone> {
    const ws = new WebSocket(
      `${server.url.replace('http', 'ws')}/v1/convai/conversation?agent_id=${agentId}`,
      ['convai'],
      { headers: { 'xi-api-key': server.apiKey } },
    );
    ws.on('error', () => undefined);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const mic = new Microphone(ws);
    ws.send(JSON.stringify({ type: 'conversation_initiation_client_data' }));
    await mic.next('conversation_initiation_metadata', 0);
    mic.t0 = performance.now();
    void mic.stream();
    return mic;
  }

  /** The capture time (performance clock) of sample `index` of the stream. */
  private timeOf(index: number): number {
    return this.t0 + (index / RATE) * 1000;
  }

  private async stream(): Promise<void> {
    while (this.running && this.ws.readyState === WebSocket.OPEN) {
      const due = this.t0 + (this.chunk + 1) * 100;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      this.lateness.push(Math.max(0, performance.now() - due));
      const part = new Int16Array(CHUNK);
      let filled = 0;
      while (filled < CHUNK && this.queue.length > 0) {
        const head = this.queue[0] as Int16Array;
        const take = Math.min(CHUNK - filled, head.length);
        part.set(head.subarray(0, take), filled);
        filled += take;
        if (take === head.length) this.queue.shift();
        else this.queue[0] = head.subarray(take);
      }
      // A room's faint noise floor (about -66 dBFS) where no speech is queued.
      for (let i = filled; i < CHUNK; i++) part[i] = Math.round((this.noise() - 0.5) * 32);
      if (this.ws.readyState !== WebSocket.OPEN) return;
      this.ws.send(
        JSON.stringify({
          user_audio_chunk: Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('base64'),
        }),
      );
      this.chunk += 1;
    }
  }

  /**
   * Queues speech into the chunk not yet sent (after what is queued already): the capture times of its
   * first and last speech sample.
   */
  say(utterance: Utterance): { onsetAt: number; endAt: number } {
    const queued = this.queue.reduce((n, q) => n + q.length, 0);
    // The stream waits to send chunk `this.chunk` (captured from t0 + 100·chunk ms): the speech is in it.
    const start = this.chunk * CHUNK + queued;
    this.queue.push(utterance.samples);
    return { onsetAt: this.timeOf(start + utterance.onset), endAt: this.timeOf(start + utterance.end) };
  }

  of(type: string, after = -Infinity): Message[] {
    return this.messages.filter((m) => m.type === type && m.at > after);
  }

  async next(type: string, after = -Infinity, timeoutMs = 60_000): Promise<Message> {
    const started = performance.now();
    for (;;) {
      const found = this.messages.find((m) => m.type === type && m.at > after);
      if (found) return found;
      if (this.ws.readyState !== WebSocket.OPEN) {
        const error = this.messages.find((m) => m.type === 'error');
        throw new Error(`the socket closed while waiting for ${type}: ${JSON.stringify(error ?? null)}`);
      }
      if (performance.now() - started > timeoutMs) throw new Error(`no ${type} within ${timeoutMs} ms`);
      await sleep(5);
    }
  }

  /** Waits until the agent's answer is over and played (its audio stopped coming, and as long as it lasts). */
  async playedOut(since: number): Promise<void> {
    await this.next('agent_response', since);
    let seen = -1;
    while (seen !== this.of('audio', since).length) {
      seen = this.of('audio', since).length;
      await sleep(400);
    }
    const audio = this.of('audio', since);
    const seconds =
      audio.reduce(
        (n, m) =>
          n + Buffer.from((m.audio_event as { audio_base_64: string }).audio_base_64, 'base64').length,
        0,
      ) /
      2 /
      RATE;
    const playedAt = (audio[0]?.at ?? performance.now()) + seconds * 1000 + 400;
    await sleep(Math.max(0, playedAt - performance.now()));
  }

  async close(): Promise<void> {
    this.running = false;
    this.ws.close(1000);
    await this.closed;
  }
}

async function createAgent(
  server: Server,
  firstMessage: string,
  tts?: { voice_id: string; model_id: string },
): Promise<string> {
  const response = await fetch(`${server.url}/v1/convai/agents/create`, {
    method: 'POST',
    headers: { 'xi-api-key': server.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench shop assistant',
      conversation_config: {
        ...(tts ? { tts } : {}),
        agent: {
          first_message: firstMessage,
          prompt: {
            prompt:
              'You help customers of a small shop. Answer in one or two short sentences. The shop opens at nine in the morning and closes at six; returns are accepted within thirty days; delivery costs five euros.',
          },
        },
      },
    }),
  });
  if (!response.ok) throw new Error(`creating the agent: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { agent_id: string }).agent_id;
}

/** The baseline: the agent's voice speaks a sentence over HTTP, timed to the whole body. */
async function httpSpeech(server: Server, text: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(
    `${server.url}/v1/text-to-speech/${AGENT_CONFIG_DEFAULTS.tts.voice_id}?output_format=pcm_16000`,
    {
      method: 'POST',
      headers: { 'xi-api-key': server.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ text, model_id: AGENT_CONFIG_DEFAULTS.tts.model_id }),
    },
  );
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the baseline's speech: ${response.status}`);
  return performance.now() - started;
}

interface Turn {
  question: string;
  heard: string;
  /** The agent's answer (agent_response). */
  said: string;
  /** speech end → vad_score 0 (the end of the turn detected). */
  endOfTurn: number;
  /** vad_score 0 → user_transcript. */
  transcription: number;
  /** user_transcript → the LLM asked (undefined with the embedded LLM: not seen from outside). */
  toLlm: number | undefined;
  /** the LLM asked (or user_transcript) → first audio: the first sentence generated, spoken and sent. */
  toAudio: number;
  total: number;
}

/** The scripted LLM's request times, and the answer it gives next (else the question's, by its words). */
interface LlmWatch {
  asked: number[];
  answer: string | undefined;
}

/** The scripted answer to what the recogniser heard (four conversations at once share the LLM). */
function answerTo(heard: string): string {
  const words = heard.toLowerCase();
  const k = /open|morning|time/.test(words)
    ? 0
    : /return|bought/.test(words)
      ? 1
      : /cost|much/.test(words)
        ? 3
        : /deliver|centre|center/.test(words)
          ? 2
          : 0;
  return (QUESTIONS[k] as [string, string])[1];
}

/** One spoken question and its answer's first audio. */
async function turn(mic: Microphone, utterance: Utterance, watch: LlmWatch | undefined): Promise<Turn> {
  const { endAt } = mic.say(utterance);
  const transcript = await mic.next('user_transcript', endAt - 1000);
  const firstAudio = await mic.next('audio', transcript.at);
  // The end of the turn: the last vad_score 0 before the transcript (a pause inside the question may
  // have flipped it before).
  const vadZero = mic
    .of('vad_score', endAt - 1000)
    .filter((m) => m.at <= transcript.at && (m.vad_score_event as { vad_score: number }).vad_score === 0)
    .at(-1);
  const llmAt = watch?.asked.find((t) => t > endAt);
  await mic.playedOut(transcript.at);
  const response = mic.of('agent_response', transcript.at)[0]?.agent_response_event as
    | { agent_response: string }
    | undefined;
  return {
    said: response?.agent_response ?? '',
    question: utterance.text,
    heard: (transcript.user_transcription_event as { user_transcript: string }).user_transcript,
    endOfTurn: (vadZero?.at ?? transcript.at) - endAt,
    transcription: transcript.at - (vadZero?.at ?? transcript.at),
    toLlm: llmAt === undefined ? undefined : llmAt - transcript.at,
    toAudio: firstAudio.at - (llmAt ?? transcript.at),
    total: firstAudio.at - endAt,
  };
}

function printTurns(turns: Turn[]): void {
  console.log(
    `${'turn'.padStart(4)} ${'silence'.padStart(11)} ${'→ text'.padStart(10)} ${'to LLM'.padStart(7)} ${'→ audio'.padStart(8)} ${'total'.padStart(8)}  heard → answered`,
  );
  for (const [i, t] of turns.entries())
    console.log(
      `${String(i + 1).padStart(4)} ${ms(t.endOfTurn).padStart(11)} ${ms(t.transcription).padStart(10)} ${ms(t.toLlm).padStart(7)} ${ms(t.toAudio).padStart(8)} ${ms(t.total).padStart(8)}  "${t.heard}" → "${t.said.length > 70 ? `${t.said.slice(0, 70)}…` : t.said}"`,
    );
  const part = (pick: (t: Turn) => number | undefined) => {
    const values = turns.map(pick).filter((v): v is number => v !== undefined);
    return values.length ? ms(quantile(values, 0.5)) : '—';
  };
  console.log(
    `${'p50'.padStart(4)} ${part((t) => t.endOfTurn).padStart(11)} ${part((t) => t.transcription).padStart(10)} ${part((t) => t.toLlm).padStart(7)} ${part((t) => t.toAudio).padStart(8)} ${part((t) => t.total).padStart(8)}`,
  );
}

/** Voice-to-voice turns on one conversation, each followed by a baseline HTTP speech of its first sentence. */
async function latencyRun(
  server: Server,
  agentId: string,
  utterances: Utterance[],
  watch: LlmWatch | undefined,
  turns: number,
  warmup: number,
  baseline: number[] | undefined,
  firstPieces?: number[],
): Promise<Turn[]> {
  const mic = await Microphone.open(server, agentId);
  const measured: Turn[] = [];
  try {
    await sleep(1000);
    for (let i = 0; i < warmup + turns; i++) {
      const k = i % QUESTIONS.length;
      const answer = (QUESTIONS[k] as [string, string])[1];
      const t = await turn(mic, utterances[k] as Utterance, watch);
      if (i >= warmup) measured.push(t);
      if (baseline) {
        const firstSentence = answer.split(/(?<=\.)\s/)[0] as string;
        const elapsed = await httpSpeech(server, firstSentence);
        const piece = await httpSpeech(server, firstSentence.slice(0, firstPieceLength(firstSentence)));
        if (i >= warmup) {
          baseline.push(elapsed);
          firstPieces?.push(piece);
        }
      }
      await sleep(300);
    }
    const late = quantile(mic.lateness, 0.95);
    if (late > 20) console.log(`(the bench's microphone sent its chunks up to ${ms(late)} late at p95)`);
  } finally {
    await mic.close();
  }
  return measured;
}

function summary(label: string, turns: Turn[], targets: boolean): void {
  const totals = turns.map((t) => t.total);
  const p50 = quantile(totals, 0.5);
  const p95 = quantile(totals, 0.95);
  console.log(
    `${label}: median ${ms(p50)}${targets ? ` (target ≤ ${TARGET.median}: ${verdict(p50 <= TARGET.median)}, ${p50 > TARGET.median ? `${ms(p50 - TARGET.median)} over` : `${ms(TARGET.median - p50)} under`})` : ''}, ` +
      `p95 ${ms(p95)}${targets ? ` (target ≤ ${TARGET.p95}: ${verdict(p95 <= TARGET.p95)}, ${p95 > TARGET.p95 ? `${ms(p95 - TARGET.p95)} over` : `${ms(TARGET.p95 - p95)} under`})` : ''}`,
  );
}

async function bargeIns(
  server: Server,
  agentId: string,
  ask: Utterance,
  stop: Utterance,
  watch: LlmWatch,
): Promise<void> {
  console.log(
    `\n## Barge-in: the agent speaks a ${LONG_ANSWER.split('. ').length}-sentence answer; ~1.5 s into its audio the user says "${STOP}" (${BARGE_INS} times)`,
  );
  console.log(
    `${'run'.padStart(4)} ${'onset → vad_score 1'.padStart(19)} ${'→ interruption'.padStart(14)} ${'total'.padStart(7)} ${'last old audio before'.padStart(21)} ${'old audio after'.padStart(15)}`,
  );
  const delays: number[] = [];
  let stale = 0;
  const mic = await Microphone.open(server, agentId);
  try {
    await sleep(1000);
    for (let i = 0; i < BARGE_INS; i++) {
      watch.answer = LONG_ANSWER;
      const { endAt } = mic.say(ask);
      const transcript = await mic.next('user_transcript', endAt - 1000);
      const first = await mic.next('audio', transcript.at);
      const answerId = (first.audio_event as { event_id: number }).event_id;
      await sleep(1500);
      watch.answer = 'Of course, go ahead.';
      const { onsetAt } = mic.say(stop);
      const interruption = await mic.next('interruption', onsetAt);
      const interruptionId = (interruption.interruption_event as { event_id: number }).event_id;
      await mic.playedOut(interruption.at);
      const old = (m: Message) => (m.audio_event as { event_id: number }).event_id < interruptionId;
      const after = mic.of('audio', interruption.at).filter(old).length;
      stale += after;
      const lastOld = mic
        .of('audio', transcript.at)
        .filter(
          (m) => (m.audio_event as { event_id: number }).event_id === answerId && m.at <= interruption.at,
        )
        .at(-1);
      const vadOne = mic
        .of('vad_score', onsetAt - 100)
        .find((m) => (m.vad_score_event as { vad_score: number }).vad_score === 1 && m.at <= interruption.at);
      delays.push(interruption.at - onsetAt);
      console.log(
        `${String(i + 1).padStart(4)} ${ms(vadOne ? vadOne.at - onsetAt : undefined).padStart(19)} ${ms(vadOne ? interruption.at - vadOne.at : undefined).padStart(14)} ${ms(interruption.at - onsetAt).padStart(7)} ${ms(lastOld ? interruption.at - lastOld.at : undefined).padStart(21)} ${String(after).padStart(15)}`,
      );
      await sleep(300);
    }
  } finally {
    watch.answer = undefined;
    await mic.close();
  }
  const p50 = quantile(delays, 0.5);
  const worst = Math.max(...delays);
  console.log(
    `onset → interruption: median ${ms(p50)}, slowest ${ms(worst)}; target ≤ ${TARGET.bargeIn} ms: ${verdict(worst <= TARGET.bargeIn)}` +
      `${worst > TARGET.bargeIn ? ` (${ms(worst - TARGET.bargeIn)} over)` : ''}; audio of the interrupted answer after the interruption: ${stale} (${verdict(stale === 0)})`,
  );
}

export async function run(): Promise<void> {
  const utterances = await Promise.all(QUESTIONS.map(([q]) => speech(q)));
  const stop = await speech(STOP);
  const llm: ScriptedLlm = await startScriptedLlm();
  const watch: LlmWatch = { asked: [], answer: undefined };
  llm.respondWith((request) => {
    watch.asked.push(performance.now());
    return { text: watch.answer ?? answerTo(lastUserText(request)) };
  });
  console.log(
    `\nThe user's questions (Flite slt, 16 kHz): ${utterances.map((u) => `${((u.end - u.onset) / RATE).toFixed(2)} s`).join(', ')} of speech; load average ${loadAverage()}`,
  );
  let scripted: Turn[] = [];
  // BENCH_CONVAI_ONLY=embedded: the embedded-LLM server alone (its figures without the rest's 12 minutes).
  if (process.env.BENCH_CONVAI_ONLY !== 'embedded') {
    const server = await startParla({
      env: { LLM_PROVIDER: 'openai', LLM_OPENAI_URL: llm.url, LLM_OPENAI_MODEL: 'scripted' },
    });
    try {
      const agentId = await createAgent(server, '');
      console.log(
        `\n## Voice to voice, one conversation, scripted LLM (answers at once), ${TURNS} turns after ${WARMUP} warm-up; load average ${loadAverage()}`,
      );
      const baseline: number[] = [];
      const firstPieces: number[] = [];
      scripted = await latencyRun(server, agentId, utterances, watch, TURNS, WARMUP, baseline, firstPieces);
      printTurns(scripted);
      summary('speech end → first audio', scripted, true);
      console.log(
        `baseline: the first sentence over HTTP TTS (Sarah, ${AGENT_CONFIG_DEFAULTS.tts.model_id}, pcm_16000), whole body: median ${ms(quantile(baseline, 0.5))}, p95 ${ms(quantile(baseline, 0.95))}; ` +
          `its first piece alone (as the TTS stream cuts it, first-piece.ts; the whole sentence when short): median ${ms(quantile(firstPieces, 0.5))}`,
      );

      console.log(
        `\n## Voice to voice with Piper (Ryan, parla_neural_fast_v1: the fast neural voice, not the default; no target), ${PIPER_TURNS} turns after ${WARMUP} warm-up; load average ${loadAverage()}`,
      );
      const piperAgent = await createAgent(server, '', {
        voice_id: premadeVoiceId('Ryan'),
        model_id: 'parla_neural_fast_v1',
      });
      const piper = await latencyRun(server, piperAgent, utterances, watch, PIPER_TURNS, WARMUP, undefined);
      printTurns(piper);
      summary('Piper: speech end → first audio', piper, false);

      console.log(
        `\n## Voice to voice, ${CONCURRENT} conversations at once, ${CONCURRENT_TURNS} turns each after 1 warm-up; load average ${loadAverage()}`,
      );
      const together = (
        await Promise.all(
          Array.from({ length: CONCURRENT }, () =>
            latencyRun(server, agentId, utterances, watch, CONCURRENT_TURNS, 1, undefined),
          ),
        )
      ).flat();
      // With four at once the scripted LLM's request times cannot be told apart by conversation.
      for (const t of together) {
        t.toLlm = undefined;
      }
      const p95 = quantile(
        together.map((t) => t.total),
        0.95,
      );
      console.log(
        `${together.length} turns: median ${ms(
          quantile(
            together.map((t) => t.total),
            0.5,
          ),
        )}, p95 ${ms(p95)}; target ≤ ${TARGET.concurrentP95}: ${verdict(p95 <= TARGET.concurrentP95)}` +
          `${p95 > TARGET.concurrentP95 ? ` (${ms(p95 - TARGET.concurrentP95)} over)` : ''}; median silence ${ms(
            quantile(
              together.map((t) => t.endOfTurn),
              0.5,
            ),
          )}, → text ${ms(
            quantile(
              together.map((t) => t.transcription),
              0.5,
            ),
          )}, transcript → audio ${ms(
            quantile(
              together.map((t) => t.toAudio),
              0.5,
            ),
          )}`,
      );

      await bargeIns(server, agentId, utterances[0] as Utterance, stop, watch);
    } finally {
      await server.stop();
    }
  }
  await llm.close();

  if (process.env.BENCH_CONVAI_EMBEDDED === '0') return;
  console.log(
    `\n## Voice to voice with the embedded LLM (Qwen2.5-Coder 0.5B, no target); load average ${loadAverage()}`,
  );
  const embedded = await startParla({ env: { LLM_PROVIDER: 'embedded' } });
  try {
    const agentId = await createAgent(embedded, '');
    const turns = await latencyRun(
      embedded,
      agentId,
      utterances,
      undefined,
      EMBEDDED_TURNS,
      WARMUP,
      undefined,
    );
    printTurns(turns);
    summary('embedded: speech end → first audio', turns, false);
    if (scripted.length) summary('scripted (above)', scripted, false);
  } finally {
    await embedded.stop();
  }
}
