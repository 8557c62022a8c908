import os from 'node:os';
import { Readable } from 'node:stream';
import { analyzeVoice, clamp, formantScale, type PcmAudio, PITCH_UNAVAILABLE_MESSAGES } from '@parla/audio';
import {
  describeOutputFormat,
  type OutputFormat,
  type SpeechToSpeechFields,
  STS_MAX_SECONDS,
  STS_MAX_UPLOAD_BYTES,
  speechToSpeechCost,
  type TtsModel,
} from '@parla/contracts';
import { AppError, invalid } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { Limiter } from '../../platform/limiter';
import { decodeToPcm } from '../../platform/media/decode-audio';
import { encodeAudio } from '../../platform/media/encode-audio';
import { checkDecodedLength, probeUpload, UploadRejectedError } from '../../platform/media/probe-upload';
import { MAX_RATIO, MIN_RATIO } from '../../platform/media/voice-transform';
import type { DenoiseProvider } from '../../providers/denoise/denoise-provider';
import type { VoiceConversionProvider } from '../../providers/voice-conversion/voice-conversion-provider';
import { assertAffordable, type Budget, chargeGeneration, recordGeneration } from '../metering';
import { rememberGeneratedAudio } from '../provenance';
import { type TtsCaller, type TtsDeps, toClientError, workOf } from '../tts';
import type { VoicePreviewDeps } from '../voices';
import { DEFAULT_VOICE_SETTINGS, getModel, resolveSpeakingVoice, type SpeakingVoice } from '../voices';
import { targetProfileOf } from './target-profile';

/*
 * Speech to speech (the voice changer, issue 7 item 7): the input's delivery — its timing and intonation
 * contour — is kept, and its timbre moved to the target voice by signal processing: the whole pitch
 * contour is scaled by target median ÷ input median, the formants by formantScale (the vocal-tract length
 * ratio from F2/F3), tempo 1, by the voice conversion provider (the embedded one: rubberband,
 * transformVoice). No neural conversion: the result keeps the speaker's articulation and accent; only
 * the voice's register and vocal-tract size move.
 */

export type StsDeps = Pick<
  TtsDeps,
  'db' | 'events' | 'storage' | 'clock' | 'logger' | 'leases' | 'externalConfigured'
> & {
  /** What makes a premade voice's preview, whose analysis is the target profile. */
  previews: VoicePreviewDeps;
  voiceConversion: VoiceConversionProvider;
  denoise: DenoiseProvider;
};

export interface StsInput {
  voiceId: string;
  outputFormat: OutputFormat;
  enableLogging: boolean;
  fields: SpeechToSpeechFields;
  /** The `audio` file's bytes; undefined when the form had none. */
  audio: Buffer | undefined;
}

export interface StsResult {
  audio: Buffer;
  contentType: string;
  historyItemId: string | undefined;
  /** The credits charged (sent as `x-character-count`, as the public API does for every generation). */
  characterCost: number;
  /** The measured conversion, for logs and tests. */
  conversion: { pitchRatio: number; formantRatio: number; inputMedianHz: number; targetMedianHz: number };
}

/** The rate an encoded upload is decoded to: the engines' own, enough for speech up to 12 kHz. */
const WORK_RATE = 24_000;
/** `file_format=pcm_s16le_16`: 16-bit little-endian mono at 16 kHz. */
const RAW_PCM_RATE = 16_000;

/** The upload as mono 16-bit PCM: raw PCM as sent, or any §5 audio/video type identified by content. */
async function readInputAudio(
  bytes: Buffer,
  fileFormat: SpeechToSpeechFields['file_format'],
  beforeDecode: (seconds: number) => Promise<void>,
): Promise<PcmAudio> {
  if (bytes.byteLength === 0) throw new UploadRejectedError('empty', 'The file is empty.');
  if (bytes.byteLength > STS_MAX_UPLOAD_BYTES)
    throw new UploadRejectedError(
      'too_large',
      `The file is larger than ${STS_MAX_UPLOAD_BYTES / 1024 / 1024} MB.`,
    );
  if (fileFormat === 'pcm_s16le_16') {
    const count = Math.floor(bytes.byteLength / 2);
    if (count / RAW_PCM_RATE > STS_MAX_SECONDS)
      throw new UploadRejectedError(
        'too_long',
        `The recording is ${Math.round(count / RAW_PCM_RATE)} s long; at most ${STS_MAX_SECONDS} s is accepted.`,
      );
    const samples = new Int16Array(count);
    Buffer.from(samples.buffer).set(bytes.subarray(0, count * 2));
    if (count === 0) throw new UploadRejectedError('no_audio', 'The file holds no audio samples.');
    return { sampleRate: RAW_PCM_RATE, channels: 1, samples };
  }
  const probed = await probeUpload(bytes, { maxBytes: STS_MAX_UPLOAD_BYTES, maxSeconds: STS_MAX_SECONDS });
  // A caller without the credits for the length the file states is refused before it is decoded.
  if (probed.durationSeconds !== undefined) await beforeDecode(probed.durationSeconds);
  const pcm = await decodeToPcm(bytes, { sampleRate: WORK_RATE, maxSeconds: STS_MAX_SECONDS });
  // What is billed is what decoded; a file that decodes to far less than it states is refused (issue 26 item 9).
  checkDecodedLength(probed, pcm.samples.length / pcm.sampleRate);
  return pcm;
}

/** What is known before anything is spent: the voice, the model, the settings and the decoded input. */
interface StsPlan {
  voice: SpeakingVoice;
  model: TtsModel;
  settings: typeof DEFAULT_VOICE_SETTINGS;
  input: PcmAudio;
  workspaceId: string;
  characterCost: number;
}

async function planSpeechToSpeech(deps: StsDeps, caller: TtsCaller, input: StsInput): Promise<StsPlan> {
  const voice = await resolveSpeakingVoice(deps.db, caller, input.voiceId);
  const model = getModel(input.fields.model_id, { external: deps.externalConfigured }, 'voice_conversion');
  if (!input.audio)
    throw new AppError('invalid_request', 'Invalid request: body.audio: Field required', {
      errors: [{ loc: ['body', 'audio'], msg: 'Field required', type: 'missing' }],
    });
  const pcm = await readInputAudio(input.audio, input.fields.file_format, (seconds) =>
    assertAffordable(deps, caller, speechToSpeechCost(seconds), input.outputFormat),
  );
  const characterCost = speechToSpeechCost(pcm.samples.length / pcm.sampleRate);
  await assertAffordable(deps, caller, characterCost, input.outputFormat);
  // Voice settings are checked and kept with the item; the conversion takes its pitch and formants from
  // the target voice and its pace from the input, so stability, similarity, style and speed change nothing.
  const given = Object.fromEntries(
    Object.entries(input.fields.voice_settings ?? {}).filter(([, v]) => v !== null && v !== undefined),
  );
  return {
    voice,
    model,
    settings: { ...DEFAULT_VOICE_SETTINGS, ...given },
    input: pcm,
    workspaceId: caller.workspaceId,
    characterCost,
  };
}

/** Writes the STS history item (empty text, as the public API gives them) that settles the credits. */
async function recordConversion(
  deps: StsDeps,
  caller: TtsCaller,
  plan: StsPlan,
  budget: Budget,
  outputFormat: OutputFormat,
  audio: Buffer,
  durationSeconds: number,
): Promise<string> {
  return recordGeneration(
    deps,
    budget,
    {
      id: newId(),
      workspaceId: plan.workspaceId,
      userId: caller.userId,
      source: 'STS',
      voiceId: plan.voice.voice_id,
      voiceName: plan.voice.name,
      voiceCategory: plan.voice.category,
      modelId: plan.model.model_id,
      text: '',
      settings: plan.settings,
      outputFormat,
      durationMs: Math.round(durationSeconds * 1000),
      alignment: null,
      dialogue: null,
      requestId: caller.requestId,
    },
    audio,
  );
}

/**
 * One speech-to-speech request end to end: checks and decoding (nothing spent), a concurrency slot and
 * the credits reserved (1,000 per minute of input, per started second), optional denoising, analysis,
 * the pitch/formant transform, encoding, then the STS history item that settles the credits. Input with
 * no voiced speech, and any failure, refund the credits.
 */
export function speechToSpeech(deps: StsDeps, caller: TtsCaller, input: StsInput): Promise<StsResult> {
  return conversions.run(() => convert(deps, caller, input));
}

/**
 * Conversions at once in this process, whatever the workspaces' concurrency slots: each decodes, denoises,
 * analyses and transforms up to 5 minutes of audio (seconds of CPU and a few hundred MB), so more wait
 * their turn rather than starve text to speech of the machine's cores.
 */
const conversions = new Limiter(Math.max(1, Math.min(4, os.availableParallelism())));

async function convert(deps: StsDeps, caller: TtsCaller, input: StsInput): Promise<StsResult> {
  const plan = await planSpeechToSpeech(deps, caller, input);
  const seconds = plan.input.samples.length / plan.input.sampleRate;
  // The transform runs at ~10–20× real time: the time bound of each step of the work.
  const workMs = 60_000 + seconds * 2000;
  return chargeGeneration(
    deps,
    caller,
    workOf(plan, 'speech_to_speech'),
    async (budget) => {
      const cleaned = input.fields.remove_background_noise
        ? await deps.denoise.denoise(plan.input, { timeoutMs: workMs })
        : plan.input;
      const source = analyzeVoice(cleaned);
      if (source.pitch.medianHz === null)
        throw invalid('audio', PITCH_UNAVAILABLE_MESSAGES[source.pitch.unavailable]);
      // An own voice's target is its profile; a premade voice's, the analysis of its preview.
      const target = plan.voice.profile ?? (await targetProfileOf(deps.previews, plan.voice));
      const targetMedianHz = target.pitch.medianHz ?? source.pitch.medianHz;
      const pitchRatio = clamp(targetMedianHz / source.pitch.medianHz, MIN_RATIO, MAX_RATIO);
      const formantRatio = formantScale(source, target);
      const converted = await deps.voiceConversion.convert(
        cleaned,
        { pitchRatio, formantRatio, tempoRatio: 1 },
        { timeoutMs: workMs },
      );
      const audio = await encodeAudio(converted, input.outputFormat, workMs);
      const historyItemId = input.enableLogging
        ? await recordConversion(deps, caller, plan, budget, input.outputFormat, audio, seconds)
        : await budget.settle().then(() => undefined);
      // Recognisable if it is played back to the installation (issue 26 item 7), fingerprinted after.
      rememberGeneratedAudio(
        deps,
        { workspaceId: caller.workspaceId, source: 'speech_to_speech' },
        converted,
      );
      return {
        audio,
        contentType: describeOutputFormat(input.outputFormat).contentType,
        historyItemId,
        characterCost: plan.characterCost,
        conversion: { pitchRatio, formantRatio, inputMedianHz: source.pitch.medianHz, targetMedianHz },
      };
    },
    (error) => toClientError(deps, error),
  );
}

/** The bytes of one chunk of a streamed answer. */
const STREAM_CHUNK_BYTES = 16 * 1024;

/**
 * `/stream`: honestly, the whole recording is converted first (rubberband's pitch and the formant shift
 * see the whole signal, and the item is settled) and only then are the encoded bytes sent in chunks.
 * A failure is therefore always a normal error response, never a cut stream.
 */
export async function streamSpeechToSpeech(
  deps: StsDeps,
  caller: TtsCaller,
  input: StsInput,
): Promise<Omit<StsResult, 'audio'> & { stream: Readable }> {
  const { audio, ...result } = await speechToSpeech(deps, caller, input);
  const chunks: Buffer[] = [];
  for (let at = 0; at < audio.length; at += STREAM_CHUNK_BYTES)
    chunks.push(audio.subarray(at, at + STREAM_CHUNK_BYTES));
  return { ...result, stream: Readable.from(chunks) };
}
