import {
  DEFAULT_TTS_MODEL_ID,
  EXTERNAL_MODEL_ID,
  engineVoiceFor,
  findModel,
  type ModelResponse,
  type PremadeVoice,
  TTS_MODELS,
  type TtsModel,
  type VoiceResponse,
} from '@parla/contracts';
import { toUnixSeconds } from '../../platform/clock';
import { ownSpeaking } from './speaking-voice';
import { DEFAULT_VOICE_SETTINGS } from './voices.service';
import type { VoiceRow, VoiceSampleRow } from './voices.tables';

/** A model as `GET /v1/models` lists it. */
export function toModelResponse(model: TtsModel): ModelResponse {
  return {
    model_id: model.model_id,
    name: model.name,
    description: model.description,
    can_be_finetuned: false,
    can_do_text_to_speech: model.can_do_text_to_speech,
    can_do_voice_conversion: model.can_do_voice_conversion,
    can_use_style: model.can_use_style,
    can_use_speaker_boost: model.can_use_speaker_boost,
    serves_pro_voices: false,
    token_cost_factor: model.token_cost_factor,
    requires_alpha_access: false,
    max_characters_request_free_user: Math.min(2500, model.maximum_text_length_per_request),
    max_characters_request_subscribed_user: model.maximum_text_length_per_request,
    maximum_text_length_per_request: model.maximum_text_length_per_request,
    languages: model.languages,
    model_rates: { character_cost_multiplier: model.token_cost_factor },
    concurrency_group: 'standard',
    alias_of: model.alias_of ?? null,
  };
}

/**
 * The models that speak a voice in its language, for `high_quality_base_model_ids` and
 * `verified_languages`: the neural ones only for a voice they have a rendition of (issue 27).
 */
function modelsFor(voice: PremadeVoice): TtsModel[] {
  return TTS_MODELS.filter(
    (m) =>
      !m.alias_of &&
      m.can_do_text_to_speech &&
      m.model_id !== EXTERNAL_MODEL_ID &&
      m.languages.some((l) => l.language_id === voice.language) &&
      engineVoiceFor(m, voice) !== undefined,
  );
}

export function previewUrl(publicUrl: string, voiceId: string): string {
  return `${publicUrl}/v1/voices/${voiceId}/preview`;
}

/** A premade voice as the public API shows it. */
export function toVoiceResponse(voice: PremadeVoice, publicUrl: string, withSettings = true): VoiceResponse {
  const preview = previewUrl(publicUrl, voice.voice_id);
  return {
    voice_id: voice.voice_id,
    name: voice.name,
    category: 'premade',
    description: voice.description,
    labels: voice.labels,
    preview_url: preview,
    available_for_tiers: [],
    settings: withSettings ? DEFAULT_VOICE_SETTINGS : null,
    sharing: null,
    high_quality_base_model_ids: modelsFor(voice).map((m) => m.model_id),
    verified_languages: modelsFor(voice).map((m) => ({
      language: voice.language,
      model_id: m.model_id,
      accent: voice.labels.accent,
      preview_url: preview,
    })),
    safety_control: null,
    voice_verification: {
      requires_verification: false,
      is_verified: false,
      verification_failures: [],
      verification_attempts_count: 0,
    },
    is_owner: false,
    is_legacy: false,
    is_mixed: false,
    created_at_unix: null,
  };
}

/**
 * The model ids a professional clone's training is reported under (`fine_tuning.state`, `progress`): the
 * one the client trained with, as sent (a public id such as eleven_multilingual_v2, the default), and the
 * Parla model it stands for, so a client polling either one sees the training end.
 */
function fineTuningModelIds(modelId: string | null): string[] {
  const sent = modelId ?? DEFAULT_TTS_MODEL_ID;
  // An own voice speaks classic (decision 21): a public id that stands for the neural model speaks it
  // through its classic fallback, so that is the Parla model its training is reported under.
  const found = findModel(sent);
  const parla = found?.fallback ?? found?.alias_of;
  return parla ? [sent, parla] : [sent];
}

/** One value under each of the model ids. */
const perModel = <T>(modelIds: readonly string[], value: T): Record<string, T> =>
  Object.fromEntries(modelIds.map((id) => [id, value]));

/** An own voice as the public API shows it (history/voices §3 Voice). */
export function toOwnVoiceResponse(
  row: VoiceRow,
  samples: readonly VoiceSampleRow[],
  publicUrl: string,
  withSettings = true,
): VoiceResponse {
  const preview = previewUrl(publicUrl, row.id);
  const speaking = ownSpeaking(row);
  const trainedFor = fineTuningModelIds(row.fineTuningModelId);
  return {
    voice_id: row.id,
    name: row.name,
    category: row.category,
    description: row.description,
    labels: { ...row.labels, ...(row.labels.language ? {} : { language: row.language }) },
    preview_url: row.profile ? preview : null,
    available_for_tiers: [],
    settings: withSettings ? { ...DEFAULT_VOICE_SETTINGS, ...(row.settings ?? {}) } : null,
    sharing: row.sharingStatus
      ? {
          status: row.sharingStatus,
          public_owner_id: row.publicOwnerId,
          original_voice_id: row.originalVoiceId,
          date_unix: row.sharedAt ? toUnixSeconds(row.sharedAt) : null,
          live_moderation_enabled: row.liveModerationEnabled,
          free_users_allowed: row.freeUsersAllowed,
          cloned_by_count: row.clonedByCount,
        }
      : null,
    high_quality_base_model_ids: [],
    verified_languages: speaking
      ? [
          {
            language: row.language,
            model_id: 'parla_v1',
            accent: speaking.labels.accent,
            preview_url: preview,
          },
        ]
      : [],
    samples: samples.map((s) => ({
      sample_id: s.id,
      file_name: s.fileName,
      mime_type: s.mimeType,
      size_bytes: s.sizeBytes,
      hash: s.hash,
      duration_secs: s.durationSecs,
    })),
    fine_tuning:
      row.category === 'professional'
        ? {
            is_allowed_to_fine_tune: true,
            state: perModel(trainedFor, row.fineTuningState ?? 'not_started'),
            verification_failures: row.verificationFailures,
            verification_attempts_count: row.verificationAttempts,
            manual_verification_requested: row.manualVerificationRequestedAt !== null,
            progress: row.fineTuningProgress === null ? null : perModel(trainedFor, row.fineTuningProgress),
          }
        : null,
    safety_control: row.safetyControl,
    voice_verification: {
      requires_verification: row.requiresVerification,
      is_verified: row.isVerified,
      verification_failures: row.verificationFailures,
      verification_attempts_count: row.verificationAttempts,
    },
    is_owner: row.originalVoiceId === null,
    is_legacy: false,
    is_mixed: false,
    created_at_unix: toUnixSeconds(row.createdAt),
  };
}
