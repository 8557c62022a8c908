import {
  type ModelResponse,
  ModelResponse as ModelSchema,
  type VoiceResponse,
  VoiceResponse as VoiceSchema,
} from '@parla/contracts';

/** A complete, contract-valid voice for tests (a premade voice, no labels); `overrides` change any field. */
export function makeVoice(overrides: Partial<VoiceResponse> = {}): VoiceResponse {
  return VoiceSchema.parse({
    voice_id: 'v1',
    name: 'Rachel',
    category: 'premade',
    description: null,
    labels: {},
    preview_url: null,
    available_for_tiers: [],
    settings: null,
    sharing: null,
    high_quality_base_model_ids: [],
    verified_languages: [],
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
    ...overrides,
  });
}

/** A complete, contract-valid text-to-speech model for tests; `overrides` change any field. */
export function makeModel(overrides: Partial<ModelResponse> = {}): ModelResponse {
  return ModelSchema.parse({
    model_id: 'eleven_multilingual_v2',
    name: 'Parla Multilingual v1',
    description: '',
    can_be_finetuned: false,
    can_do_text_to_speech: true,
    can_do_voice_conversion: false,
    can_use_style: true,
    can_use_speaker_boost: true,
    serves_pro_voices: false,
    token_cost_factor: 1,
    requires_alpha_access: false,
    max_characters_request_free_user: 2500,
    max_characters_request_subscribed_user: 5000,
    maximum_text_length_per_request: 10000,
    languages: [],
    model_rates: { character_cost_multiplier: 1 },
    concurrency_group: 'standard',
    alias_of: null,
    ...overrides,
  });
}
