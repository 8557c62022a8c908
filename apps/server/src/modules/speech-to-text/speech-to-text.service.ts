import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  type AdditionalFormatResponse,
  findSttLanguage,
  findSttModel,
  type SpeechToTextFields,
  STT_MAX_CHANNELS,
  STT_MAX_SECONDS,
  STT_MAX_UPLOAD_BYTES,
  STT_MIN_SECONDS,
  STT_UNSUPPORTED_FIELDS,
  type SttModel,
  speechToTextCost,
  sttMessages,
  type WireTranscript,
} from '@parla/contracts';
import type { Logger } from 'pino';
import type { RequestCaller } from '../../platform/auth-guard';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError, invalid } from '../../platform/errors';
import { transcriptionCompleted, transcriptionFailed } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import type { JobDefinition } from '../../platform/jobs/job-definition';
import type { JobQueue } from '../../platform/jobs/job-queue';
import {
  measureDecodedSeconds,
  probeUploadFile,
  UploadRejectedError,
} from '../../platform/media/probe-upload';
import { ModelUnavailableError } from '../../platform/models/model-store';
import type { DiskUpload } from '../../platform/multipart';
import { withScratchDir } from '../../platform/scratch-dirs';
import type { Storage } from '../../platform/storage/storage';
import type { FileTranscription, SttProvider } from '../../providers/stt/stt-provider';
import type { GenerationLeases } from '../metering';
import { assertAffordable, type Budget, openBudget, runMetered } from '../metering';
import { requireWorkspaceWebhook } from '../webhooks';
import { downloadSourceUrl, type SourceUrlPolicy } from './source-url';
import { makePlaybackMp3, rawPcmToWav } from './speech-to-text.media';
import { toWireTranscript } from './speech-to-text.present';
import {
  getTranscript,
  insertTranscript,
  raiseTranscriptProgress,
  setTranscriptState,
  type TranscriptInsert,
} from './speech-to-text.store';
import type { TranscriptOptions, TranscriptRow } from './speech-to-text.tables';
import { formatTranscript } from './transcript-formats';
import { singleTranscript, toChunk, toMultichannel } from './transcript-words';

/*
 * Speech to text (issue 19 items 1, 3, 4): a file or a URL is checked (content, size, length), priced at
 * 1 credit per started second of audio per channel transcribed, then transcribed by the provider under a
 * metering budget: in the request (`POST /v1/speech-to-text`; the client going away cancels the work and
 * refunds it), or as a job (`webhook=true`, the page's `POST /v1/speech-to-text/transcripts`). A completed
 * transcript is kept in the workspace with its audio as MP3 and `transcription.completed` is published in
 * the transaction that settles its credits; a failure refunds them and publishes `transcription.failed`.
 */

export interface SttDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  leases: GenerationLeases;
  storage: Storage;
  stt: SttProvider;
  queue: JobQueue;
  urlPolicy: SourceUrlPolicy;
  /** The job that runs background transcriptions (set by the module: the jobs file imports this one). */
  transcribeJob: JobDefinition<TranscribeJobPayload>;
}

export interface TranscribeJobPayload {
  transcriptId: string;
  workspaceId: string;
}

/** What a request sent: its validated fields, every field as sent, and the upload already on disk. */
export interface SttInput {
  fields: SpeechToTextFields;
  raw: Record<string, string>;
  file: DiskUpload | undefined;
  /** The request's scratch folder (the upload is in it; the URL's download and conversions go there). */
  dir: string;
}

/** A source checked and priced, ready to transcribe. */
export interface PreparedSource {
  /** The media file the recogniser reads. */
  file: string;
  seconds: number;
  channels: number;
  /** Channels transcribed (and billed): each one with `use_multi_channel`, else 1. */
  billedChannels: number;
  credits: number;
  model: SttModel;
  options: TranscriptOptions;
  /** The upload's own name, for the transcript's default name. */
  filename: string | undefined;
}

/** Where a workspace's transcript files are kept. */
const workspaceFolder = (workspaceId: string) => `speech-to-text/${workspaceId}/`;
export const audioKeyOf = (workspaceId: string, id: string) => `${workspaceFolder(workspaceId)}${id}.mp3`;
const sourceKeyOf = (workspaceId: string, id: string) => `${workspaceFolder(workspaceId)}${id}.source`;

/** Removes every transcript file of a workspace (after its deletion; its rows went by cascade). */
export async function deleteWorkspaceTranscriptFiles(storage: Storage, workspaceId: string): Promise<void> {
  for (const key of await storage.list(workspaceFolder(workspaceId))) await storage.delete(key);
}

/** The model a request names (our ids or the public API's aliases), if this server has it. */
export function resolveSttModel(
  stt: Pick<SttProvider, 'languages'>,
  modelId: string,
  field = 'model_id',
): SttModel {
  const model = findSttModel(modelId);
  if (!model)
    throw invalid(
      field,
      `Unknown model "${modelId}". Use parla_stt_v1, parla_stt_accurate_v1, parla_stt_multilingual_v1 or parla_stt_external_v1 (scribe_v1 and scribe_v2 are accepted as parla_stt_v1).`,
    );
  if (model.kind === 'external' && stt.languages('external').length === 0)
    throw invalid(field, sttMessages.externalUnavailable);
  return model;
}

/** Refuses a language the model does not transcribe (the built-in English models know English only). */
export function assertLanguage(
  stt: Pick<SttProvider, 'languages'>,
  model: SttModel,
  language: string | undefined,
) {
  if (!language) return;
  const known = stt.languages(model.kind);
  if (known.includes(language)) return;
  const name = findSttLanguage(language)?.name ?? language;
  throw new AppError(
    'unsupported_language',
    model.kind === 'external'
      ? `The transcription server does not transcribe ${name}.`
      : model.kind === 'multilingual'
        ? `The multilingual model does not transcribe ${name}.`
        : `The built-in model transcribes English only, not ${name}.${' '}Other languages need the model parla_stt_multilingual_v1 (built in) or parla_stt_external_v1 (an operator's transcription server).`,
  );
}

/** The request's options as kept with the transcript (and read by its job). */
function optionsOf(fields: SpeechToTextFields): TranscriptOptions {
  return {
    languageCode: fields.language_code,
    tagAudioEvents: fields.tag_audio_events,
    numSpeakers: fields.num_speakers,
    timestampsGranularity: fields.timestamps_granularity,
    diarize: fields.diarize,
    diarizationThreshold: fields.diarization_threshold,
    useMultiChannel: fields.use_multi_channel,
    multichannelOutputStyle: fields.multichannel_output_style,
    additionalFormats: (fields.additional_formats ?? []) as Record<string, unknown>[],
  };
}

/**
 * Checks a request and its audio before anything is spent: the fields Parla does not do, the model and
 * language, exactly one source (file or URL, fetched under the operator's policy), the content by ffprobe
 * (§5 types), its length as it decodes (at least 100 ms and at most 90 minutes, and about what its header
 * says), and the credits that length costs.
 */
export async function prepareSource(
  deps: SttDeps,
  input: SttInput,
  signal?: AbortSignal,
): Promise<PreparedSource> {
  const unsupported = STT_UNSUPPORTED_FIELDS.find((f) => input.raw[f] !== undefined);
  if (unsupported) throw invalid(unsupported, `${unsupported} is not supported by this server.`);
  const { fields } = input;
  const model = resolveSttModel(deps.stt, fields.model_id);
  assertLanguage(deps.stt, model, fields.language_code);
  const url = fields.source_url ?? fields.cloud_storage_url;
  const given = [input.file, fields.source_url, fields.cloud_storage_url].filter((v) => v !== undefined);
  if (given.length === 0) throw invalid('file', sttMessages.noInput);
  if (given.length > 1) throw invalid('file', sttMessages.bothInputs);
  let file: string;
  let bytes: number;
  if (input.file) {
    file = input.file.path;
    bytes = input.file.bytes;
  } else {
    file = path.join(input.dir, 'download');
    bytes = (await downloadSourceUrl(url as string, file, deps.urlPolicy, signal)).bytes;
  }
  let seconds: number;
  let channels = 1;
  if (bytes === 0) throw new UploadRejectedError('empty', 'The file is empty.');
  if (bytes > STT_MAX_UPLOAD_BYTES) throw new UploadRejectedError('too_large', sttMessages.tooLarge);
  if (fields.file_format === 'pcm_s16le_16') {
    const wav = await rawPcmToWav(file, path.join(input.dir, 'pcm.wav'));
    file = wav.file;
    seconds = wav.seconds;
  } else {
    const probe = await probeUploadFile(file, bytes, {
      maxBytes: STT_MAX_UPLOAD_BYTES,
      maxSeconds: STT_MAX_SECONDS,
    });
    if (!probe.hasAudio) throw new UploadRejectedError('no_audio', 'The file has no sound to transcribe.');
    // Billed by the sound that decodes, never by the length a header claims; a file that decodes to far
    // less than it claims is refused (issue 26 item 9).
    seconds = await measureDecodedSeconds(file, probe, { maxSeconds: STT_MAX_SECONDS });
    channels = probe.channels ?? 1;
  }
  if (seconds < STT_MIN_SECONDS) throw new AppError('bad_request', sttMessages.tooShort);
  if (seconds > STT_MAX_SECONDS) throw new AppError('bad_request', sttMessages.tooLong);
  if (fields.use_multi_channel && channels > STT_MAX_CHANNELS)
    throw invalid(
      'use_multi_channel',
      `The file has ${channels} channels; at most ${STT_MAX_CHANNELS} are transcribed.`,
    );
  const billedChannels = fields.use_multi_channel ? channels : 1;
  return {
    file,
    seconds,
    channels,
    billedChannels,
    credits: speechToTextCost(seconds, billedChannels),
    model,
    options: optionsOf(fields),
    filename: input.file?.filename || (url ? new URL(url).pathname.split('/').pop() : undefined) || undefined,
  };
}

/** What the recogniser heard, as the public API's transcript (one chunk, or one per channel). */
export async function transcribeSource(
  stt: SttProvider,
  source: { file: string; model: SttModel; options: TranscriptOptions; channels: number },
  tenant: string,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<{ transcript: WireTranscript; durationSecs: number; languageCode: string }> {
  const { options } = source;
  const request = {
    file: source.file,
    model: source.model.kind,
    timestamps: options.timestampsGranularity,
    audioEvents: options.tagAudioEvents,
    tenant,
    signal,
    ...(options.languageCode ? { language: options.languageCode } : {}),
    ...(options.diarize
      ? {
          diarize: {
            ...(options.numSpeakers ? { numSpeakers: options.numSpeakers } : {}),
            ...(options.diarizationThreshold ? { threshold: options.diarizationThreshold } : {}),
          },
        }
      : {}),
  };
  const shape = { timestamps: options.timestampsGranularity, audioEvents: options.tagAudioEvents };
  if (!options.useMultiChannel || source.channels < 2) {
    const heard = await stt.transcribeFile({ ...request, onProgress });
    const chunk = toChunk(heard, shape);
    if (!options.useMultiChannel)
      return { transcript: chunk, durationSecs: heard.durationSecs, languageCode: heard.languageCode };
    return {
      transcript: toMultichannel([heard], { ...shape, style: options.multichannelOutputStyle }),
      durationSecs: heard.durationSecs,
      languageCode: heard.languageCode,
    };
  }
  const heard: FileTranscription[] = [];
  for (let channel = 0; channel < source.channels; channel++) {
    heard.push(
      await stt.transcribeFile({
        ...request,
        channel,
        onProgress: (f) => onProgress((channel + f) / source.channels),
      }),
    );
  }
  const first = heard[0] as FileTranscription;
  return {
    transcript: toMultichannel(heard, { ...shape, style: options.multichannelOutputStyle }),
    durationSecs: Math.max(...heard.map((h) => h.durationSecs)),
    languageCode: first.languageCode,
  };
}

/** The `additional_formats` a request asked for, made from the transcript. */
export function additionalFormatsOf(
  transcript: WireTranscript,
  options: TranscriptOptions,
  speakerNames: Record<string, string> = {},
): AdditionalFormatResponse[] {
  return options.additionalFormats.map((o) =>
    formatTranscript(
      singleTranscript(transcript),
      o as unknown as Parameters<typeof formatTranscript>[1],
      speakerNames,
    ),
  );
}

/** What a failed transcription's error becomes for its caller: ours as they are, anything else a 503. */
export function toSttClientError(deps: Pick<SttDeps, 'logger'>, error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ModelUnavailableError) {
    // Trying again will not help: the operator repairs the model store (issue 27 item 1).
    return new AppError(
      'service_unavailable',
      `Speech to text is unavailable on this server: its model ${error.message}. Nothing was charged.`,
      { cause: error },
    );
  }
  deps.logger.warn({ err: error }, 'a transcription failed; credits refunded');
  return new AppError(
    'service_unavailable',
    'The transcription failed. Nothing was charged; please try again.',
    {
      cause: error,
    },
  );
}

/** The transcript's name: what the page gave, else the file's name, else its time. */
function nameOf(prepared: PreparedSource, given: string | undefined, now: Date): string {
  const name = given ?? prepared.filename ?? `Transcript ${now.toISOString().slice(0, 16).replace('T', ' ')}`;
  return name.slice(0, 200);
}

/** The row of a transcription as it starts. */
function newRow(
  caller: RequestCaller,
  prepared: PreparedSource,
  input: SttInput,
  now: Date,
): Omit<TranscriptInsert, 'id' | 'status'> {
  return {
    workspaceId: caller.workspaceId,
    userId: caller.userId,
    apiKeyId: caller.apiKeyId ?? null,
    name: nameOf(prepared, input.fields.name, now),
    modelId: prepared.model.model_id,
    options: prepared.options,
    durationSecs: Math.round(prepared.seconds * 1000) / 1000,
    channels: prepared.channels,
    credits: prepared.credits,
    requestId: caller.requestId,
    webhook: input.fields.webhook,
    webhookId: input.fields.webhook_id ?? null,
    webhookMetadata: input.fields.webhook_metadata ?? null,
    createdAt: now,
  };
}

/**
 * Keeps a finished transcription: its audio (MP3) in storage, then the row and the settlement of its
 * credits and `transcription.completed` in one transaction. The audio goes again if the commit fails.
 */
async function keepTranscript(
  deps: SttDeps,
  budget: Budget,
  row: { id: string; workspaceId: string; userId: string; requestId: string },
  write: (tx: Db) => Promise<TranscriptRow | undefined>,
  playback: string,
): Promise<TranscriptRow> {
  const audioKey = audioKeyOf(row.workspaceId, row.id);
  await deps.storage.put(audioKey, createReadStream(playback));
  try {
    const done = await deps.events.transaction(async (tx, events) => {
      const kept = await write(tx);
      if (!kept?.transcript) throw new AppError('resource_not_found', `Transcript ${row.id} was deleted.`);
      await budget.settleIn(tx);
      const wire = toWireTranscript({ ...kept, transcript: kept.transcript });
      await events.publish(transcriptionCompleted, {
        workspaceId: row.workspaceId,
        userId: row.userId,
        transcriptionId: row.id,
        requestId: row.requestId,
        webhook: kept.webhook,
        webhookId: kept.webhookId,
        webhookMetadata: kept.webhookMetadata ?? null,
        transcription: {
          ...wire,
          ...(kept.options.additionalFormats.length > 0
            ? { additional_formats: additionalFormatsOf(wire, kept.options) }
            : {}),
        } as Record<string, unknown>,
      });
      return kept;
    });
    await budget.completed(null);
    return done;
  } catch (error) {
    await deps.storage.delete(audioKey).catch(() => undefined);
    throw error;
  }
}

/**
 * `POST /v1/speech-to-text` in the request: checked, priced, transcribed under a budget and kept (unless
 * `enable_logging=false`, when nothing is kept). `signal` is the client's: it going away cancels the work
 * and refunds the credits.
 */
export async function transcribeNow(
  deps: SttDeps,
  caller: RequestCaller,
  input: SttInput,
  enableLogging: boolean,
  signal: AbortSignal,
): Promise<WireTranscript> {
  const prepared = await prepareSource(deps, input, signal);
  await assertAffordable(deps, caller, prepared.credits, 'mp3_44100_128');
  const budget = await openBudget(deps, caller, {
    kind: 'speech_to_text',
    credits: prepared.credits,
    modelId: prepared.model.model_id,
  });
  return runMetered(
    budget,
    async (cancel) => {
      const both = AbortSignal.any([cancel, signal]);
      const heard = await transcribeSource(deps.stt, prepared, caller.workspaceId, both, () => undefined);
      const formats = (t: WireTranscript) => {
        const made = additionalFormatsOf(t, prepared.options);
        return made.length > 0 ? { additional_formats: made } : {};
      };
      if (!enableLogging) {
        await budget.settle();
        const t = { ...heard.transcript, audio_duration_secs: prepared.seconds };
        return { ...t, ...formats(t) } as WireTranscript;
      }
      const playback = path.join(input.dir, 'playback.mp3');
      await makePlaybackMp3(prepared.file, playback, prepared.channels, both);
      const id = newId();
      const now = deps.clock.now();
      const kept = await keepTranscript(
        deps,
        budget,
        { id, workspaceId: caller.workspaceId, userId: caller.userId, requestId: caller.requestId },
        async (tx) => {
          await insertTranscript(tx, {
            ...newRow(caller, prepared, input, now),
            id,
            status: 'completed',
            progress: 1,
            languageCode: heard.languageCode,
            audioKey: audioKeyOf(caller.workspaceId, id),
            transcript: heard.transcript,
            completedAt: deps.clock.now(),
          });
          return getTranscript(tx, caller.workspaceId, id);
        },
        playback,
      );
      const wire = toWireTranscript({ ...kept, transcript: heard.transcript });
      return { ...wire, ...formats(wire) } as WireTranscript;
    },
    (error) => (signal.aborted ? error : toSttClientError(deps, error)),
  );
}

/**
 * The asynchronous form (`webhook=true`, or the page's upload): checked and priced now, the source kept in
 * storage, a `processing` transcript written and its job queued. Nothing is charged until the job's
 * transcription is kept; a refusal now costs nothing.
 */
export async function startTranscription(
  deps: SttDeps,
  caller: RequestCaller,
  input: SttInput,
  signal?: AbortSignal,
): Promise<{ transcriptionId: string }> {
  // Before any work: the webhook named must be the workspace's (another's is 404, as any foreign id).
  if (input.fields.webhook_id)
    await requireWorkspaceWebhook(deps, caller.workspaceId, input.fields.webhook_id);
  const prepared = await prepareSource(deps, input, signal);
  await assertAffordable(deps, caller, prepared.credits, 'mp3_44100_128');
  const id = newId();
  const sourceKey = sourceKeyOf(caller.workspaceId, id);
  await deps.storage.put(sourceKey, createReadStream(prepared.file));
  try {
    await insertTranscript(deps.db, {
      ...newRow(caller, prepared, input, deps.clock.now()),
      id,
      status: 'processing',
      sourceKey,
    });
    await deps.queue.enqueue(deps.transcribeJob, { transcriptId: id, workspaceId: caller.workspaceId });
  } catch (error) {
    await deps.storage.delete(sourceKey).catch(() => undefined);
    throw error;
  }
  return { transcriptionId: id };
}

/** The least time between two progress writes of a job (each is a database write). */
const PROGRESS_EVERY_MS = 1000;

/** Thrown for a job to be tried again later (the plan's concurrency slots were all taken). */
export class TranscriptionDeferred extends Error {
  override name = 'TranscriptionDeferred';
}

/** Marks a transcript failed (refunded already) and tells the modules that care. */
async function failTranscript(
  deps: Pick<SttDeps, 'events' | 'clock' | 'storage'>,
  row: TranscriptRow,
  message: string,
): Promise<void> {
  await deps.events.transaction(async (tx, events) => {
    const failed = await setTranscriptState(tx, row.workspaceId, row.id, {
      status: 'failed',
      error: message,
      sourceKey: null,
      completedAt: deps.clock.now(),
    });
    if (!failed) return;
    await events.publish(transcriptionFailed, {
      workspaceId: row.workspaceId,
      userId: row.userId ?? '',
      transcriptionId: row.id,
      requestId: row.requestId,
      webhook: row.webhook,
      webhookId: row.webhookId,
      webhookMetadata: row.webhookMetadata ?? null,
      error: message,
    });
  });
  if (row.sourceKey) await deps.storage.delete(row.sourceKey).catch(() => undefined);
}

/**
 * The transcription's job gave up (its last attempt failed, or its process died during it: jobs'
 * `onExhausted`): a transcript still `processing` is failed and published, not left processing for ever. The
 * dead run's reservation is refunded when its lease runs out (metering's lease sweep).
 */
export async function abandonTranscription(
  deps: Pick<SttDeps, 'db' | 'events' | 'clock' | 'storage'>,
  payload: TranscribeJobPayload,
): Promise<void> {
  const row = await getTranscript(deps.db, payload.workspaceId, payload.transcriptId);
  if (row?.status === 'processing')
    await failTranscript(deps, row, 'The transcription failed on the server. Its credits were refunded.');
}

/**
 * A queued transcription: its source from storage, a budget (a plan whose slots are all taken waits for
 * the job's next try), the transcription with its progress kept on the row, then the transcript kept.
 * A transcript deleted meanwhile is left alone; a failure refunds, marks it failed and publishes it.
 */
export async function runTranscriptionJob(
  deps: SttDeps,
  payload: TranscribeJobPayload,
  job: { signal: AbortSignal; lastAttempt: boolean },
): Promise<void> {
  const row = await getTranscript(deps.db, payload.workspaceId, payload.transcriptId);
  if (row?.status !== 'processing') return;
  if (!row.userId || !row.sourceKey) {
    await failTranscript(deps, row, 'The transcription could not start: its upload or its owner is gone.');
    return;
  }
  const userId = row.userId;
  const sourceKey = row.sourceKey;
  const caller: RequestCaller = {
    userId,
    workspaceId: row.workspaceId,
    apiKeyId: row.apiKeyId ?? undefined,
    requestId: row.requestId,
  };
  let budget: Budget;
  try {
    budget = await openBudget(deps, caller, {
      kind: 'speech_to_text',
      credits: row.credits,
      modelId: row.modelId,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'too_many_concurrent_requests' && !job.lastAttempt)
      throw new TranscriptionDeferred('every concurrency slot of the plan is taken; trying again later');
    await failTranscript(deps, row, toSttClientError(deps, error).message);
    return;
  }
  await withScratchDir('stt-job-', async (dir) => {
    try {
      await runMetered(
        budget,
        async (cancel) => {
          const signal = AbortSignal.any([cancel, job.signal]);
          const file = path.join(dir, 'source');
          const stream = await deps.storage.stream(sourceKey);
          if (!stream) throw new AppError('resource_not_found', 'The upload of this transcription is gone.');
          await pipeline(stream, createWriteStream(file, { mode: 0o600 }));
          const model = findSttModel(row.modelId);
          if (!model) throw new AppError('bad_request', `The model ${row.modelId} is not available.`);
          let lastWrite = 0;
          const heard = await transcribeSource(
            deps.stt,
            { file, model, options: row.options, channels: row.channels ?? 1 },
            row.workspaceId,
            signal,
            (fraction) => {
              const now = Date.now();
              if (now - lastWrite < PROGRESS_EVERY_MS) return;
              lastWrite = now;
              void raiseTranscriptProgress(
                deps.db,
                row.workspaceId,
                row.id,
                Math.min(0.99, Math.max(0, fraction)),
              ).catch(() => undefined);
            },
          );
          const playback = path.join(dir, 'playback.mp3');
          await makePlaybackMp3(file, playback, row.channels ?? 1, signal);
          await keepTranscript(
            deps,
            budget,
            { id: row.id, workspaceId: row.workspaceId, userId, requestId: row.requestId },
            (tx) =>
              setTranscriptState(tx, row.workspaceId, row.id, {
                status: 'completed',
                progress: 1,
                languageCode: heard.languageCode,
                audioKey: audioKeyOf(row.workspaceId, row.id),
                transcript: heard.transcript,
                sourceKey: null,
                completedAt: deps.clock.now(),
              }),
            playback,
          );
        },
        (error) => error,
      );
      await deps.storage.delete(sourceKey).catch(() => undefined);
    } catch (error) {
      // The worker stopping (or losing the job's lease): refunded; the job runs again later.
      if (job.signal.aborted) throw error;
      const gone = !(await getTranscript(deps.db, row.workspaceId, row.id));
      if (gone) {
        await deps.storage.delete(sourceKey).catch(() => undefined);
        return;
      }
      await failTranscript(deps, row, toSttClientError(deps, error).message);
    }
  });
}
