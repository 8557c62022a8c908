import { z } from 'zod';
import { defineRoute } from './routes';
import { formBool } from './speech-to-speech';

/*
 * Professional voice clones under /v1/voices/pvc (history/voices §7), wire-compatible with the official
 * client: create, edit, samples (add, update, delete, audio, waveform), speaker separation, captcha,
 * manual verification and training. Multipart calls carry no JSON body in their descriptor.
 */

/** Samples of a professional clone: larger and longer than an instant clone's. */
export const PVC_SAMPLE_MAX_BYTES = 50 * 1024 * 1024;
/**
 * The longest a professional-clone sample may be, refused by its header before anything is decoded:
 * speaker separation, trims and training decode at most this much of a sample.
 */
export const PVC_SAMPLE_MAX_SECONDS = 30 * 60;
/** Files per samples request: each is read into memory, so a request holds at most 8 × 50 MB. */
export const PVC_MAX_FILES = 8;
/** Documents per manual verification request (at most 11 MB each). */
export const PVC_MAX_VERIFICATION_FILES = 5;
/** Training needs at least this much audio across the samples (selected speakers only, when chosen). */
export const PVC_MIN_TRAINING_SECONDS = 30;
/** A captcha read aloud must be sent within this long of asking for it. */
export const PVC_CAPTCHA_TTL_SECONDS = 10 * 60;
/** Share of the captcha's words the transcription must contain (the recogniser misses some). */
export const PVC_CAPTCHA_MIN_WORD_SHARE = 0.5;

const labels = z.record(z.string().max(50), z.string().max(100).nullish()).nullish();

export const CreatePvcBody = z.object({
  name: z.string().trim().min(1).max(100),
  language: z.string().trim().min(2).max(10),
  description: z.string().max(500).nullish(),
  labels,
});

export const EditPvcBody = CreatePvcBody.partial();

const voiceParams = z.object({ voice_id: z.string().max(100) });
const sampleParams = voiceParams.extend({ sample_id: z.string().max(100) });

export const createPvcRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/pvc',
  summary: 'A professional voice clone, empty until samples are added and it is trained',
  tags: ['voices-pvc'],
  body: CreatePvcBody,
  response: z.object({ voice_id: z.string() }),
});

export const editPvcRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/pvc/:voice_id',
  summary: "A professional clone's name, language, description or labels",
  tags: ['voices-pvc'],
  params: voiceParams,
  body: EditPvcBody,
  response: z.object({ voice_id: z.string() }),
});

/** The text fields of `POST /v1/voices/pvc/{id}/samples` (besides `files`). */
export const AddPvcSamplesFields = z.object({ remove_background_noise: formBool.default(false) });

/** How the public API shows a speaker separation. */
export const SpeakerSeparation = z.object({
  voice_id: z.string(),
  sample_id: z.string(),
  status: z.enum(['not_started', 'pending', 'completed', 'failed']),
  speakers: z
    .record(
      z.string(),
      z.object({
        speaker_id: z.string(),
        duration_secs: z.number(),
        utterances: z.array(z.object({ start: z.number(), end: z.number() })).nullish(),
      }),
    )
    .nullish(),
  selected_speaker_ids: z.array(z.string()).nullish(),
});
export type SpeakerSeparation = z.infer<typeof SpeakerSeparation>;

export const PvcSample = z.object({
  sample_id: z.string(),
  file_name: z.string(),
  mime_type: z.string(),
  size_bytes: z.number().int(),
  hash: z.string(),
  duration_secs: z.number(),
  remove_background_noise: z.boolean(),
  has_isolated_audio: z.boolean(),
  has_isolated_audio_preview: z.boolean(),
  speaker_separation: SpeakerSeparation.nullish(),
  trim_start: z.number().nullish(),
  trim_end: z.number().nullish(),
});

export const addPvcSamplesRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/pvc/:voice_id/samples',
  summary: 'Add samples to a professional clone (multipart: files, remove_background_noise)',
  tags: ['voices-pvc'],
  params: voiceParams,
  response: z.array(PvcSample),
});

export const updatePvcSampleRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/pvc/:voice_id/samples/:sample_id',
  summary: "A sample's selected speakers, trim, name or noise removal",
  tags: ['voices-pvc'],
  params: sampleParams,
  body: z.object({
    remove_background_noise: z.boolean().nullish(),
    selected_speaker_ids: z.array(z.string().max(50)).max(20).nullish(),
    trim_start_time: z.number().int().min(0).nullish(),
    trim_end_time: z.number().int().min(0).nullish(),
    file_name: z.string().trim().min(1).max(255).nullish(),
  }),
  response: z.object({ voice_id: z.string() }),
});

export const deletePvcSampleRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/voices/pvc/:voice_id/samples/:sample_id',
  summary: 'Delete a sample of a professional clone',
  tags: ['voices-pvc'],
  params: sampleParams,
  response: z.object({ status: z.literal('ok') }),
});

export const pvcSampleAudioRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/pvc/:voice_id/samples/:sample_id/audio',
  summary: 'A sample as mp3, base64 (optionally with background noise removed)',
  tags: ['voices-pvc'],
  params: sampleParams,
  query: z.object({ remove_background_noise: z.enum(['true', 'false']).optional() }),
  response: z.object({
    audio_base_64: z.string(),
    voice_id: z.string(),
    sample_id: z.string(),
    media_type: z.string(),
    duration_secs: z.number().nullish(),
  }),
});

export const pvcSampleWaveformRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/pvc/:voice_id/samples/:sample_id/waveform',
  summary: "A sample's waveform: 200 peak levels from 0 to 1",
  tags: ['voices-pvc'],
  params: sampleParams,
  response: z.object({ sample_id: z.string(), visual_waveform: z.array(z.number()) }),
});

export const pvcSpeakersRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/pvc/:voice_id/samples/:sample_id/speakers',
  summary: "A sample's speaker separation: its status and, once done, the speakers",
  tags: ['voices-pvc'],
  params: sampleParams,
  response: SpeakerSeparation,
});

export const separateSpeakersRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/pvc/:voice_id/samples/:sample_id/separate-speakers',
  summary: 'Start separating the speakers of a sample (poll …/speakers)',
  tags: ['voices-pvc'],
  params: sampleParams,
  response: z.object({ status: z.literal('ok') }),
});

export const pvcSpeakerAudioRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/pvc/:voice_id/samples/:sample_id/speakers/:speaker_id/audio',
  summary: "One speaker's speech in a sample, as mp3, base64",
  tags: ['voices-pvc'],
  params: sampleParams.extend({ speaker_id: z.string().max(50) }),
  response: z.object({ audio_base_64: z.string(), media_type: z.string(), duration_secs: z.number() }),
});

export const pvcCaptchaRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/pvc/:voice_id/captcha',
  summary: 'A new sentence for the voice owner to read aloud (valid 10 minutes)',
  tags: ['voices-pvc'],
  params: voiceParams,
  response: z.object({ text: z.string(), expires_at_unix: z.number().int() }),
});

export const verifyPvcCaptchaRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/pvc/:voice_id/captcha',
  summary: 'The captcha read aloud (multipart: recording): checked by transcription and speaker similarity',
  tags: ['voices-pvc'],
  params: voiceParams,
  response: z.object({ status: z.literal('ok') }),
});

export const pvcVerificationRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/pvc/:voice_id/verification',
  summary: 'Ask for manual verification (multipart: files, extra_text)',
  tags: ['voices-pvc'],
  params: voiceParams,
  response: z.object({ status: z.literal('ok') }),
});

export const trainPvcRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/pvc/:voice_id/train',
  summary: 'Start training a verified professional clone from its samples',
  tags: ['voices-pvc'],
  params: voiceParams,
  body: z.object({ model_id: z.string().max(100).nullish() }).optional(),
  response: z.object({ status: z.literal('ok') }),
});
