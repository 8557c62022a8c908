import fs from 'node:fs/promises';
import path from 'node:path';
import {
  DEFAULT_STT_MODEL_ID,
  type ForcedAlignmentResponse,
  SpeechToTextFields,
  STT_MAX_UPLOAD_BYTES,
  type WireTranscript,
} from '@parla/contracts';
import type { AppDeps } from '../../app-deps';
import type { RequestCaller } from '../../platform/auth-guard';
import { invalid } from '../../platform/errors';
import { withScratchDir } from '../../platform/scratch-dirs';
import { alignNow } from './forced-alignment.service';
import { transcribeJob } from './speech-to-text.jobs';
import { type SttDeps, transcribeNow } from './speech-to-text.service';

/*
 * Speech to text as other modules use it (issue 26 item 1): what dubbing and agents call through the front
 * door. Both are metered as the public API's calls are (1 credit per started second of audio, refunded on
 * failure) and check the file the same way (its content, its length, the model and language).
 */

/** What transcription needs from the app (`sttDepsOf`). */
export type TranscriptionDeps = Omit<SttDeps, 'transcribeJob'>;

/** What transcription needs from the app (the routes and the transcription job). */
export function sttDepsOf(deps: AppDeps): TranscriptionDeps {
  return {
    db: deps.database.db,
    events: deps.events,
    clock: deps.clock,
    logger: deps.logger,
    leases: deps.leases,
    storage: deps.storage,
    stt: deps.providers.stt,
    queue: deps.queue,
    urlPolicy: { ...deps.config.sttUrls, maxBytes: STT_MAX_UPLOAD_BYTES },
  };
}

/** A recording to transcribe, and how. */
export interface TranscribeInput {
  /** The audio or video file on disk (any type the API accepts). */
  file: string;
  /** A model id or its public alias (`scribe_v1`…); the default model when absent. */
  modelId?: string | undefined;
  /** ISO 639-1 or 639-3; detected when absent. */
  languageCode?: string | undefined;
  /** Tell speakers apart (`speaker_id` on each word), at most `numSpeakers` of them. */
  diarize?: boolean | undefined;
  numSpeakers?: number | undefined;
  timestamps?: 'none' | 'word' | 'character' | undefined;
  tagAudioEvents?: boolean | undefined;
  /** Keep it as one of the workspace's transcripts, with its audio (default false: nothing kept). */
  keep?: boolean | undefined;
}

/** The fields of `POST /v1/speech-to-text` for this input, checked by the call's own schema. */
function fieldsOf(input: TranscribeInput): SpeechToTextFields {
  const fields = SpeechToTextFields.safeParse({
    model_id: input.modelId ?? DEFAULT_STT_MODEL_ID,
    ...(input.languageCode ? { language_code: input.languageCode } : {}),
    diarize: String(input.diarize ?? false),
    ...(input.numSpeakers ? { num_speakers: String(input.numSpeakers) } : {}),
    timestamps_granularity: input.timestamps ?? 'word',
    tag_audio_events: String(input.tagAudioEvents ?? false),
  });
  if (!fields.success) {
    const issue = fields.error.issues[0];
    throw invalid(
      String(issue?.path[0] ?? 'file'),
      issue?.message ?? 'The transcription request is not valid.',
    );
  }
  return fields.data;
}

/** The file as an upload of the API's calls (its size, its name). */
async function uploadOf(file: string) {
  const { size } = await fs.stat(file).catch(() => {
    throw invalid('file', 'The file to transcribe does not exist.');
  });
  return { path: file, bytes: size, filename: path.basename(file), mimetype: 'application/octet-stream' };
}

/**
 * Transcribes a recording, metered: the transcript as `POST /v1/speech-to-text` answers it (words with
 * their times, speakers with `diarize`). `signal` cancels the work and refunds the credits.
 */
export async function transcribe(
  deps: TranscriptionDeps,
  caller: RequestCaller,
  input: TranscribeInput,
  signal: AbortSignal = new AbortController().signal,
): Promise<WireTranscript> {
  const fields = fieldsOf(input);
  const file = await uploadOf(input.file);
  // The scratch folder holds what the transcription makes on the way (the playback copy it keeps).
  return withScratchDir('stt-use-', (dir) =>
    transcribeNow(
      { ...deps, transcribeJob },
      caller,
      { fields, raw: {}, file, dir },
      input.keep ?? false,
      signal,
    ),
  );
}

/**
 * Where each word and character of a known text is in a recording (`POST /v1/forced-alignment`), metered
 * as transcribing it is: at most 10 minutes and 5,000 words; a recording with no speech is refused.
 */
export async function alignText(
  deps: TranscriptionDeps,
  caller: RequestCaller,
  input: { file: string; text: string },
  signal: AbortSignal = new AbortController().signal,
): Promise<ForcedAlignmentResponse> {
  const text = input.text.trim();
  if (!text) throw invalid('text', 'The text has no words to align.');
  return alignNow(
    { ...deps, transcribeJob },
    caller,
    { fields: { text, enabled_spooled_file: false }, file: await uploadOf(input.file) },
    signal,
  );
}
