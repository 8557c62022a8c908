import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { encodeWav, type PcmAudio } from '@parla/audio';
import { speechToTextCost } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerJobs } from '../../modules';
import { transcriptionCompleted, transcriptionFailed } from '../../platform/events/catalog';
import { JobWorker } from '../../platform/jobs/job-worker';
import { jobs } from '../../platform/jobs/jobs.tables';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { runMediaTool } from '../../platform/media/run-media-tool';
import type { FileTranscription, SttProvider, TranscribeFileRequest } from '../../providers/stt/stt-provider';
import { characterCountOf, newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { fliteSpeech, makeMediaFile, TEN_SECONDS_OF_TEXT } from '../../test/test-signals';
import { transcribeJob } from './speech-to-text.jobs';
import { transcripts } from './speech-to-text.tables';

/*
 * The speech-to-text API through the real app, database, storage, ffprobe/ffmpeg and metering, with a
 * recogniser this file controls (the real one is exercised in speech-to-text.engine.int.test.ts): it
 * hears two words in any audio with sound in it and nothing in silence, so what is checked here is the
 * API's own work — input rules, shapes, credits, jobs, files.
 */

const calls: TranscribeFileRequest[] = [];

/** The mean power of 16 kHz PCM. */
const power = (pcm: PcmAudio) => {
  let sum = 0;
  for (const s of pcm.samples) sum += s * s;
  return sum / Math.max(1, pcm.samples.length);
};

/** A file's one channel (or the mix of all) as 16 kHz PCM. */
async function channelOf(file: string, channel: number | undefined): Promise<PcmAudio> {
  const pick = channel === undefined ? ['-ac', '1'] : ['-af', `pan=mono|c0=c${channel}`];
  const { stdout } = await runMediaTool(
    'ffmpeg',
    ['-v', 'error', '-i', file, ...pick, '-ar', '16000', '-f', 's16le', 'pipe:1'],
    { timeoutMs: 60_000 },
  );
  const samples = new Int16Array(
    stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.byteLength),
  );
  return { sampleRate: 16_000, channels: 1, samples };
}

/** While set, the recogniser reports these fractions of progress, in order, a little over a second apart. */
let progressSteps: number[] | undefined;

/** While set, the recogniser holds each file until its request is cancelled (and says when it saw that). */
let holding: { aborted: boolean } | undefined;

const recogniser: SttProvider = {
  languages: (model) => (model === 'external' ? [] : ['en']),
  async transcribeFile(request) {
    calls.push(request);
    const hold = holding;
    if (hold) {
      await new Promise<void>((resolve) => {
        if (request.signal?.aborted) resolve();
        request.signal?.addEventListener('abort', () => resolve(), { once: true });
        setTimeout(resolve, 30_000);
      });
      hold.aborted = request.signal?.aborted ?? false;
      throw new Error('cancelled');
    }
    const pcm = await channelOf(request.file, request.channel);
    const seconds = pcm.samples.length / 16_000;
    if (progressSteps) {
      // Each past the job's 1 s between progress writes, so every one is written.
      for (const [i, fraction] of progressSteps.entries()) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 1100));
        request.onProgress?.(fraction);
      }
    } else request.onProgress?.(0.5);
    const heard = power(pcm) > 1000;
    const speaker = request.diarize ? { speaker: request.channel === 1 ? 'speaker_1' : 'speaker_0' } : {};
    const words = [
      { text: 'Hello', start: 0.1, end: 0.5, characters: [{ text: 'H', start: 0.1, end: 0.2 }] },
      { text: 'world.', start: 0.6, end: 1 },
    ];
    const result: FileTranscription = {
      languageCode: 'eng',
      languageProbability: 0.99,
      durationSecs: seconds,
      channels: 1,
      segments: heard
        ? [
            {
              start: 0.1,
              end: 1,
              text: 'Hello world.',
              words: request.timestamps === 'none' ? [] : words,
              ...speaker,
            },
          ]
        : [],
      events: [],
    };
    return result;
  },
  align: () => Promise.reject(new Error('not used here')),
  transcribe: () => Promise.reject(new Error('not used here')),
};

let t: TestApp;
let baseUrl: string;
let worker: JobWorker;
let files: http.Server;
let filesUrl: string;
let speechWav: Buffer;
let speechSeconds: number;
const db = () => t.deps.database.db;

beforeAll(async () => {
  t = await createTestApp({
    providers: { stt: recogniser },
    env: {
      STT_URL_ALLOWED_HOSTS: '127.0.0.1',
      STT_URL_ALLOW_PRIVATE: 'true',
      // The webhooks made here point at this file's own server on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  worker = new JobWorker({
    db: db(),
    definitions: workerJobs(t.deps, [transcribeJob]),
    concurrency: 1,
    leaseSeconds: 60,
    pollIntervalMs: 100,
    logger: pino({ level: 'silent' }),
    exclusiveDatabase: false,
  });
  t.deps.queue.onEnqueued = () => worker.wake();
  await worker.start();
  const speech = await fliteSpeech('awb', TEN_SECONDS_OF_TEXT);
  speechWav = encodeWav(speech);
  speechSeconds = speech.samples.length / speech.sampleRate;
  files = http.createServer((request, response) => {
    if (request.url === '/speech.wav') return response.end(speechWav);
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await worker.stop(20_000);
  files.closeAllConnections();
  await new Promise((resolve) => files.close(resolve));
  await t.close();
});

const newAccount = () => newSpeechAccount(t.app, baseUrl);

/** Writes bytes to a file of this test's own folder (for ffmpeg, which reads files). */
async function onDisk(bytes: Uint8Array, name: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parla-stt-test-'));
  const file = path.join(dir, name);
  await fs.writeFile(file, bytes);
  return file;
}

/** A multipart call with fetch, for what the official client does not send. */
async function postForm(
  account: SpeechAccount,
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; name: string },
  path = '/v1/speech-to-text',
) {
  const form = new FormData();
  if (file) form.append('file', new Blob([file.bytes]), file.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'xi-api-key': account.key },
    body: form,
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {}
  return { status: response.status, json, text, headers: response.headers };
}

const get = (account: SpeechAccount, path: string, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}${path}`, { headers: { 'xi-api-key': account.key, ...headers } });

/** Waits for a background transcript to end (the worker polls every 100 ms). */
async function settled(account: SpeechAccount, id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i++) {
    const details = (await (await get(account, `/v1/speech-to-text/transcripts/${id}/details`)).json()) as {
      status: string;
    };
    if (details.status !== 'processing') return details;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const queued = await db().select().from(jobs);
  throw new Error(
    `transcript ${id} never ended: ${JSON.stringify(queued.map((j) => [j.state, j.lastError]))}`,
  );
}

describe('POST /v1/speech-to-text with the official client', () => {
  it('transcribes an upload with diarization, word timestamps and additional formats, and charges its seconds', async () => {
    const account = await newAccount();
    const before = calls.length;
    const result = await account.sdk.speechToText.convert({
      modelId: 'scribe_v1',
      file: new Blob([speechWav]),
      diarize: true,
      timestampsGranularity: 'word',
      additionalFormats: [{ format: 'srt' }, { format: 'txt', includeSpeakers: false }, { format: 'docx' }],
    });
    expect('text' in result && result.text).toBe('Hello world.');
    if (!('words' in result)) throw new Error('not a chunk');
    expect(result.words.map((w) => w.type)).toEqual(['word', 'spacing', 'word']);
    expect(result.words[0]).toMatchObject({
      text: 'Hello',
      start: 0.1,
      end: 0.5,
      speakerId: 'speaker_0',
      logprob: 0,
    });
    expect(result.languageCode).toBe('eng');
    expect(result.transcriptionId).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(result.audioDurationSecs).toBeCloseTo(speechSeconds, 1);
    const [srt, txt, docx] = result.additionalFormats ?? [];
    expect(srt).toMatchObject({ requestedFormat: 'srt', fileExtension: 'srt', isBase64Encoded: false });
    expect(srt?.content).toMatch(/^1\n00:00:00,100 --> 00:00:01,\d{3}\nSpeaker 1: Hello world\.\n/);
    expect(txt?.content).toBe('[00:00:00] Hello world.\n');
    expect(docx).toMatchObject({ fileExtension: 'docx', isBase64Encoded: true });
    expect(
      Buffer.from(docx?.content ?? '', 'base64')
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    // The recogniser was asked for what the request said.
    expect(calls.slice(before)).toMatchObject([
      { model: 'fast', timestamps: 'word', diarize: {}, audioEvents: true },
    ]);
    expect(await characterCountOf(db(), account.workspaceId)).toBe(speechToTextCost(speechSeconds));
  });

  it('reads and deletes the transcript, and keeps its audio until then', async () => {
    const account = await newAccount();
    const made = await account.sdk.speechToText.convert({
      modelId: 'scribe_v2',
      file: new Blob([speechWav]),
    });
    const id = 'transcriptionId' in made ? (made.transcriptionId ?? '') : '';
    const read = await account.sdk.speechToText.transcripts.get(id);
    expect(read).toMatchObject({ text: 'Hello world.', transcriptionId: id });
    const audio = await get(account, `/v1/speech-to-text/transcripts/${id}/audio`, { range: 'bytes=0-99' });
    expect(audio.status).toBe(206);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    expect((await audio.arrayBuffer()).byteLength).toBe(100);
    const [row] = await db().select().from(transcripts).where(eq(transcripts.id, id));
    expect(row?.audioKey && (await t.deps.storage.stat(row.audioKey))).toBeTruthy();
    await account.sdk.speechToText.transcripts.delete(id);
    await expect(account.sdk.speechToText.transcripts.get(id)).rejects.toMatchObject({ statusCode: 404 });
    expect(row?.audioKey && (await t.deps.storage.stat(row.audioKey))).toBeUndefined();
    // Another workspace never sees it.
    const other = await newAccount();
    const made2 = await account.sdk.speechToText.convert({
      modelId: 'scribe_v1',
      file: new Blob([speechWav]),
    });
    const id2 = 'transcriptionId' in made2 ? (made2.transcriptionId ?? '') : '';
    await expect(other.sdk.speechToText.transcripts.get(id2)).rejects.toMatchObject({ statusCode: 404 });
    await expect(other.sdk.speechToText.transcripts.delete(id2)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('answers an empty transcript for silence (and charges its seconds)', async () => {
    const account = await newAccount();
    const silence = encodeWav({ sampleRate: 16_000, channels: 1, samples: new Int16Array(16_000 * 3) });
    const result = await postForm(
      account,
      { model_id: 'parla_stt_v1' },
      { bytes: silence, name: 'silence.wav' },
    );
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({ text: '', words: [] });
    expect(await characterCountOf(db(), account.workspaceId)).toBe(3);
  });

  it('takes raw 16 kHz PCM (file_format=pcm_s16le_16)', async () => {
    const account = await newAccount();
    const pcm = await decodeToPcm(speechWav, { sampleRate: 16_000, maxSeconds: 60 });
    const raw = Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength);
    const result = await postForm(
      account,
      { model_id: 'parla_stt_v1', file_format: 'pcm_s16le_16' },
      { bytes: raw, name: 'a.pcm' },
    );
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({ text: 'Hello world.' });
    expect(result.json.audio_duration_secs).toBeCloseTo(pcm.samples.length / 16_000, 2);
  });

  it('fetches a URL from a host the operator allows', async () => {
    const account = await newAccount();
    const result = await postForm(account, {
      model_id: 'scribe_v1',
      cloud_storage_url: `${filesUrl}/speech.wav`,
    });
    expect(result.status).toBe(200);
    expect(result.json).toMatchObject({ text: 'Hello world.' });
    const missing = await postForm(account, { model_id: 'scribe_v1', source_url: `${filesUrl}/nothing.wav` });
    expect(missing).toMatchObject({ status: 400, json: { detail: { status: 'url_fetch_failed' } } });
  });

  it('transcribes each channel with use_multi_channel and bills each one', async () => {
    const account = await newAccount();
    const stereo = await makeMediaFile('stereo.wav', [
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=300:duration=2',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=mono:d=2',
      '-filter_complex',
      '[0:a][1:a]amerge=inputs=2',
      '-ar',
      '16000',
    ]);
    const result = await postForm(
      account,
      { model_id: 'scribe_v1', use_multi_channel: 'true', diarize: 'true' },
      { bytes: stereo, name: 'stereo.wav' },
    );
    expect(result.status).toBe(200);
    const body = result.json as { transcripts: { channel_index: number; text: string }[] };
    expect(body.transcripts.map((c) => [c.channel_index, c.text])).toEqual([
      [0, 'Hello world.'],
      [1, ''],
    ]);
    expect(await characterCountOf(db(), account.workspaceId)).toBe(4);
  });
});

/** A real 2-hour Opus file of silence (~2 MB): one minute encoded, then looped 120 times by copy. */
async function twoHourOpus(): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parla-stt-test-'));
  try {
    const minute = path.join(dir, 'minute.opus');
    const long = path.join(dir, 'long.opus');
    await runMediaTool(
      'ffmpeg',
      [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'anullsrc=r=8000:cl=mono',
        '-t',
        '60',
        '-c:a',
        'libopus',
        '-b:a',
        '6k',
        '-frame_duration',
        '60',
        '-y',
        minute,
      ],
      { timeoutMs: 60_000 },
    );
    await runMediaTool(
      'ffmpeg',
      ['-v', 'error', '-stream_loop', '119', '-i', minute, '-c', 'copy', '-y', long],
      {
        timeoutMs: 60_000,
      },
    );
    return await fs.readFile(long);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

describe('bad input', () => {
  it('refuses with a clear error, charges nothing and keeps nothing', async () => {
    const account = await newAccount();
    const twoHours = await twoHourOpus();
    const cases: [
      string,
      Record<string, string>,
      { bytes: Uint8Array; name: string } | undefined,
      number,
      string,
    ][] = [
      ['0-byte file', {}, { bytes: new Uint8Array(0), name: 'a.mp3' }, 415, 'unsupported_media_type'],
      [
        'text named .mp3',
        {},
        { bytes: Buffer.from('This is not audio at all.\n'.repeat(50)), name: 'a.mp3' },
        415,
        'unsupported_media_type',
      ],
      [
        'corrupt file',
        {},
        { bytes: Buffer.concat([speechWav.subarray(0, 12), Buffer.alloc(4000, 7)]), name: 'a.wav' },
        415,
        'unsupported_media_type',
      ],
      ['2-hour file', {}, { bytes: twoHours, name: 'long.opus' }, 400, 'bad_request'],
      ['no input', {}, undefined, 422, 'invalid_request'],
      [
        'file and URL',
        { source_url: `${filesUrl}/speech.wav` },
        { bytes: speechWav, name: 'a.wav' },
        422,
        'invalid_request',
      ],
      ['unknown model', { model_id: 'nope' }, { bytes: speechWav, name: 'a.wav' }, 422, 'invalid_request'],
      [
        'a language the model lacks',
        { language_code: 'de' },
        { bytes: speechWav, name: 'a.wav' },
        400,
        'unsupported_language',
      ],
      [
        'external model without a server',
        { model_id: 'parla_stt_external_v1' },
        { bytes: speechWav, name: 'a.wav' },
        422,
        'invalid_request',
      ],
      [
        'a field not supported',
        { keyterms: 'Parla' },
        { bytes: speechWav, name: 'a.wav' },
        422,
        'invalid_request',
      ],
      [
        'too many speakers',
        { num_speakers: '33' },
        { bytes: speechWav, name: 'a.wav' },
        422,
        'invalid_request',
      ],
      [
        'too short',
        {},
        {
          bytes: encodeWav({ sampleRate: 16_000, channels: 1, samples: new Int16Array(800) }),
          name: 'a.wav',
        },
        400,
        'bad_request',
      ],
    ];
    const before = calls.length;
    for (const [name, fields, file, status, code] of cases) {
      const result = await postForm(account, { model_id: 'scribe_v1', ...fields }, file);
      expect([name, result.status, (result.json.detail as { status?: string })?.status], name).toEqual([
        name,
        status,
        code,
      ]);
      expect((result.json.detail as { message: string }).message.length, name).toBeGreaterThan(10);
    }
    expect(calls.length).toBe(before);
    expect(await characterCountOf(db(), account.workspaceId)).toBe(0);
    expect(
      await db().select().from(transcripts).where(eq(transcripts.workspaceId, account.workspaceId)),
    ).toEqual([]);
    expect((await fetch(`${baseUrl}/v1/models`)).status).toBeLessThan(500);
  }, 60_000);

  it('a file cut short (the first 1.5 KB of an 11 s MP3) is refused in the request and the page’s upload, charging nothing', async () => {
    const account = await newAccount();
    const mp3 = await makeMediaFile('speech.mp3', [
      '-i',
      await onDisk(speechWav, 'speech.wav'),
      '-c:a',
      'libmp3lame',
    ]);
    const cut = mp3.subarray(0, 1536);
    const before = calls.length;
    for (const path of ['/v1/speech-to-text', '/v1/speech-to-text/transcripts', '/v1/audio/transcriptions']) {
      const fields: Record<string, string> =
        path === '/v1/audio/transcriptions' ? { model: 'whisper-1' } : { model_id: 'scribe_v1' };
      const result = await postForm(account, fields, { bytes: cut, name: 'speech.mp3' }, path);
      expect([path, result.status, result.json.detail]).toEqual([
        path,
        400,
        {
          status: 'bad_request',
          message: expect.stringMatching(
            /^The file is cut short or damaged: it says it lasts \d+(\.\d)? s, but only 0\.\d s/,
          ),
        },
      ]);
    }
    expect(calls.length).toBe(before);
    expect(await characterCountOf(db(), account.workspaceId)).toBe(0);
    expect(
      await db().select().from(transcripts).where(eq(transcripts.workspaceId, account.workspaceId)),
    ).toEqual([]);
  });

  it('bills the seconds that decode, not the length ffprobe estimates for a VBR MP3 without a Xing frame', async () => {
    const account = await newAccount();
    // Quiet noise, then a loud tone: the bitrate of the first frames makes the estimate far too short.
    const vbr = await makeMediaFile('vbr.mp3', [
      ...['-f', 'lavfi', '-i', 'anoisesrc=d=10:a=0.05', '-f', 'lavfi', '-i', 'sine=f=300:d=10'],
      ...['-filter_complex', '[0][1]concat=n=2:v=0:a=1', '-ac', '1', '-ar', '44100'],
      ...['-c:a', 'libmp3lame', '-q:a', '0', '-write_xing', '0'],
    ]);
    const decoded = (await channelOf(await onDisk(vbr, 'vbr.mp3'), undefined)).samples.length / 16_000;
    const result = await postForm(account, { model_id: 'scribe_v1' }, { bytes: vbr, name: 'vbr.mp3' });
    expect(result.status).toBe(200);
    expect(result.json.audio_duration_secs).toBeCloseTo(decoded, 1);
    expect(await characterCountOf(db(), account.workspaceId)).toBe(speechToTextCost(decoded));
  });

  it('a client that goes away cancels the transcription and is charged nothing', async () => {
    const account = await newAccount();
    const hold = { aborted: false };
    holding = hold;
    try {
      const before = calls.length;
      const client = new AbortController();
      const form = new FormData();
      form.append('model_id', 'scribe_v1');
      form.append('file', new Blob([speechWav]), 'a.wav');
      const sent = fetch(`${baseUrl}/v1/speech-to-text`, {
        method: 'POST',
        headers: { 'xi-api-key': account.key },
        body: form,
        signal: client.signal,
      }).catch(() => undefined);
      for (let i = 0; i < 300 && calls.length === before; i++) await new Promise((r) => setTimeout(r, 100));
      expect(calls.length).toBe(before + 1);
      client.abort();
      await sent;
      for (let i = 0; i < 100 && !hold.aborted; i++) await new Promise((r) => setTimeout(r, 100));
      expect(hold.aborted).toBe(true);
    } finally {
      holding = undefined;
    }
    // Refunded and its slot freed: nothing charged, nothing kept, and the next request runs.
    await new Promise((r) => setTimeout(r, 500));
    expect(await characterCountOf(db(), account.workspaceId)).toBe(0);
    expect(
      await db().select().from(transcripts).where(eq(transcripts.workspaceId, account.workspaceId)),
    ).toEqual([]);
    const next = await postForm(account, { model_id: 'scribe_v1' }, { bytes: speechWav, name: 'a.wav' });
    expect(next.status).toBe(200);
  });

  it('the SDK sees a 422 as its UnprocessableEntityError', async () => {
    const account = await newAccount();
    const error = await account.sdk.speechToText
      .convert({ modelId: 'scribe_v1', file: new Blob([speechWav]), numSpeakers: 40 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(422);
  });
});

describe('background transcriptions', () => {
  it('webhook=true answers at once and the job publishes transcription.completed with the transcript', async () => {
    const account = await newAccount();
    const seen: {
      transcriptionId: string;
      webhook: boolean;
      webhookMetadata: unknown;
      transcription: Record<string, unknown>;
    }[] = [];
    t.deps.events.on(transcriptionCompleted, `test.completed.${account.workspaceId}`, async (event) => {
      if (event.workspaceId === account.workspaceId) seen.push(event);
    });
    const ack = await account.sdk.speechToText.convert({
      modelId: 'scribe_v1',
      file: new Blob([speechWav]),
      webhook: true,
      webhookMetadata: JSON.stringify({ job: 'a-1' }),
      additionalFormats: [{ format: 'srt' }],
    });
    expect(ack).toMatchObject({ message: expect.any(String), requestId: expect.any(String) });
    const id = 'transcriptionId' in ack ? (ack.transcriptionId ?? '') : '';
    expect(await settled(account, id)).toMatchObject({ status: 'completed', progress: 1 });
    expect(await account.sdk.speechToText.transcripts.get(id)).toMatchObject({ text: 'Hello world.' });
    expect(seen).toMatchObject([
      {
        transcriptionId: id,
        webhook: true,
        webhookMetadata: { job: 'a-1' },
        transcription: {
          text: 'Hello world.',
          transcription_id: id,
          additional_formats: [{ requested_format: 'srt' }],
        },
      },
    ]);
    expect(await characterCountOf(db(), account.workspaceId)).toBe(speechToTextCost(speechSeconds));
  });

  it('a transcript whose job gave up (its process died on the last attempt) is failed and published, not left processing', async () => {
    const account = await newAccount();
    const failed: { transcriptionId: string; error: string }[] = [];
    t.deps.events.on(transcriptionFailed, `test.failed.${account.workspaceId}`, async (event) => {
      if (event.workspaceId === account.workspaceId) failed.push(event);
    });
    const created = await postForm(
      account,
      { model_id: 'parla_stt_v1' },
      { bytes: speechWav, name: 'a.wav' },
      '/v1/speech-to-text/transcripts',
    );
    const id = created.json.transcription_id as string;
    expect(await settled(account, id)).toMatchObject({ status: 'completed' });
    // As a run whose process died leaves it: still processing, no run left to end it.
    await db()
      .update(transcripts)
      .set({ status: 'processing', completedAt: null })
      .where(eq(transcripts.id, id));
    const [job] = workerJobs(t.deps, [transcribeJob]);
    await job?.onExhausted?.(
      { transcriptId: id, workspaceId: account.workspaceId },
      { jobId: 'j1', error: 'lease lost' },
    );
    expect(await (await get(account, `/v1/speech-to-text/transcripts/${id}/details`)).json()).toMatchObject({
      status: 'failed',
    });
    expect(failed).toMatchObject([
      { transcriptionId: id, error: 'The transcription failed on the server. Its credits were refunded.' },
    ]);
  });

  it('a transcript’s progress never goes back, even when the work reports less (a job taken over, issue 26 item 9)', async () => {
    const account = await newAccount();
    // What a job taken over by another worker reports: 0.485 from the first attempt, then the second
    // attempt's count from its own start.
    progressSteps = [0.485, 0.277, 0.6];
    try {
      const created = await postForm(
        account,
        { model_id: 'parla_stt_v1' },
        { bytes: speechWav, name: 'a.wav' },
        '/v1/speech-to-text/transcripts',
      );
      expect(created.status).toBe(202);
      const id = created.json.transcription_id as string;
      const shown: number[] = [];
      for (let i = 0; i < 500; i++) {
        const details = (await (
          await get(account, `/v1/speech-to-text/transcripts/${id}/details`)
        ).json()) as {
          status: string;
          progress: number;
        };
        if (shown.at(-1) !== details.progress) shown.push(details.progress);
        if (details.status !== 'processing') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(shown.some((p) => Math.abs(p - 0.485) < 1e-6)).toBe(true);
      expect(shown.at(-1)).toBe(1);
      const backwards = shown.filter((p, i) => i > 0 && p < (shown[i - 1] ?? 0));
      expect({ shown, backwards }).toEqual({ shown, backwards: [] });
    } finally {
      progressSteps = undefined;
    }
  });

  it('a webhook_id of another workspace is 404 as any foreign id, and nothing is charged or kept (issue 26 item 9)', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/workspace/webhooks',
      headers: { 'xi-api-key': owner.key },
      payload: {
        settings: { auth_type: 'hmac', name: 'Transcripts', webhook_url: `${filesUrl}/hook` },
        events: ['speech_to_text'],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const webhookId = (created.json() as { webhook_id: string }).webhook_id;
    const before = calls.length;
    for (const [path, id] of [
      ['/v1/speech-to-text', webhookId],
      ['/v1/speech-to-text/transcripts', webhookId],
      ['/v1/speech-to-text', 'no-such-webhook'],
    ] as const) {
      const refused = await postForm(
        other,
        { model_id: 'scribe_v1', webhook: 'true', webhook_id: id },
        { bytes: speechWav, name: 'a.wav' },
        path,
      );
      expect([path, id, refused.status, refused.json]).toEqual([
        path,
        id,
        404,
        { detail: { status: 'resource_not_found', message: 'The webhook was not found.' } },
      ]);
    }
    expect(calls.length).toBe(before);
    expect(await characterCountOf(db(), other.workspaceId)).toBe(0);
    expect(
      await db().select().from(transcripts).where(eq(transcripts.workspaceId, other.workspaceId)),
    ).toEqual([]);
    // The workspace's own webhook is taken.
    const own = await postForm(
      owner,
      { model_id: 'scribe_v1', webhook: 'true', webhook_id: webhookId },
      { bytes: speechWav, name: 'a.wav' },
    );
    expect(own.status).toBe(202);
    await settled(owner, own.json.transcription_id as string);
  });

  it("the page's upload: processing, then listed, renamed, exported with speaker names, deleted", async () => {
    const account = await newAccount();
    const created = await postForm(
      account,
      { model_id: 'parla_stt_v1', diarize: 'true', name: 'Interview' },
      { bytes: speechWav, name: 'interview.wav' },
      '/v1/speech-to-text/transcripts',
    );
    expect(created.status).toBe(202);
    expect(created.json).toMatchObject({ status: 'processing' });
    const id = created.json.transcription_id as string;
    const early = await get(account, `/v1/speech-to-text/transcripts/${id}`);
    expect([200, 409]).toContain(early.status);
    await settled(account, id);
    const list = (await (await get(account, '/v1/speech-to-text/transcripts?page_size=5')).json()) as {
      transcripts: Record<string, unknown>[];
      has_more: boolean;
    };
    expect(list.transcripts).toMatchObject([
      {
        transcription_id: id,
        name: 'Interview',
        status: 'completed',
        progress: 1,
        error: null,
        language_code: 'eng',
        model_id: 'parla_stt_v1',
      },
    ]);
    expect(list.has_more).toBe(false);
    const search = (await (
      await get(account, '/v1/speech-to-text/transcripts?search=nothing-like-it')
    ).json()) as {
      transcripts: unknown[];
    };
    expect(search.transcripts).toEqual([]);
    const patched = await fetch(`${baseUrl}/v1/speech-to-text/transcripts/${id}`, {
      method: 'PATCH',
      headers: { 'xi-api-key': account.key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Interview with Alice', speaker_names: { speaker_0: 'Alice' } }),
    });
    expect(await patched.json()).toMatchObject({
      name: 'Interview with Alice',
      speaker_names: { speaker_0: 'Alice' },
    });
    const srt = await get(account, `/v1/speech-to-text/transcripts/${id}/export?format=srt`);
    expect(srt.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Interview with Alice.srt"/,
    );
    expect(await srt.text()).toContain('Alice: Hello world.');
    // A name with letters outside ASCII keeps them (issue 26 item 7: "Lucía" was saved as "Luca").
    await fetch(`${baseUrl}/v1/speech-to-text/transcripts/${id}`, {
      method: 'PATCH',
      headers: { 'xi-api-key': account.key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Entrevista con Lucía' }),
    });
    const txt = await get(account, `/v1/speech-to-text/transcripts/${id}/export?format=txt`);
    expect(txt.headers.get('content-disposition')).toBe(
      `attachment; filename="Entrevista con Lucia.txt"; filename*=UTF-8''Entrevista%20con%20Luc%C3%ADa.txt`,
    );
    const audio = await get(account, `/v1/speech-to-text/transcripts/${id}/audio`);
    expect(audio.headers.get('content-disposition')).toBe(
      `inline; filename="Entrevista con Lucia.mp3"; filename*=UTF-8''Entrevista%20con%20Luc%C3%ADa.mp3`,
    );
    await audio.arrayBuffer();
    for (const format of ['txt', 'vtt', 'docx', 'pdf', 'json', 'html', 'segmented_json']) {
      const file = await get(account, `/v1/speech-to-text/transcripts/${id}/export?format=${format}`);
      expect([format, file.status]).toEqual([format, 200]);
      expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(10);
    }
    expect((await get(account, `/v1/speech-to-text/transcripts/${id}/export?format=mp3`)).status).toBe(422);
    await account.sdk.speechToText.transcripts.delete(id);
    expect((await get(account, `/v1/speech-to-text/transcripts/${id}/details`)).status).toBe(404);
  });
});

describe('POST /v1/audio/transcriptions (OpenAI)', () => {
  it('answers json, text, srt, vtt and verbose_json with words', async () => {
    const account = await newAccount();
    const call = (fields: Record<string, string>) =>
      postForm(
        account,
        { model: 'whisper-1', ...fields },
        { bytes: speechWav, name: 'a.wav' },
        '/v1/audio/transcriptions',
      );
    expect((await call({})).json).toEqual({ text: 'Hello world.' });
    expect((await call({ response_format: 'text' })).text).toBe('Hello world.\n');
    expect((await call({ response_format: 'srt' })).text).toMatch(
      /00:00:00,100 --> 00:00:01,\d{3}\nHello world\./,
    );
    expect((await call({ response_format: 'vtt' })).text).toMatch(/^WEBVTT/);
    const verbose = await call({
      response_format: 'verbose_json',
      'timestamp_granularities[]': 'word',
      prompt: 'ignored',
    });
    expect(verbose.json).toMatchObject({
      task: 'transcribe',
      language: 'english',
      text: 'Hello world.',
      words: [
        { word: 'Hello', start: 0.1, end: 0.5 },
        { word: 'world.', start: 0.6, end: 1 },
      ],
    });
    expect(verbose.json.segments).toBeUndefined();
    expect((await call({ model: 'nope' })).status).toBe(422);
    expect((await call({ 'timestamp_granularities[]': 'letter' })).status).toBe(422);
  });
});

// Last: a second app's routes hand the transcription job their dependencies, and it closes after.
describe('URLs under the default policy', () => {
  it('refuses a URL to a private address when the operator did not allow them', async () => {
    const strict = await createTestApp({
      providers: { stt: recogniser },
      env: { STT_URL_ALLOWED_HOSTS: '*' },
    });
    try {
      const url = await strict.app.listen({ port: 0, host: '127.0.0.1' });
      const account = await newSpeechAccount(strict.app, url);
      for (const source of [
        `${filesUrl}/speech.wav`,
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/a.wav',
        'file:///etc/passwd',
      ]) {
        const form = new FormData();
        form.append('model_id', 'scribe_v1');
        form.append('source_url', source);
        const response = await fetch(`${url}/v1/speech-to-text`, {
          method: 'POST',
          headers: { 'xi-api-key': account.key },
          body: form,
        });
        expect([
          source,
          response.status,
          ((await response.json()) as { detail: { status: string } }).detail.status,
        ]).toEqual([source, 400, 'url_not_allowed']);
      }
      expect(await characterCountOf(strict.deps.database.db, account.workspaceId)).toBe(0);
    } finally {
      await strict.close();
    }
  });
});
