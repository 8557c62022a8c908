import { z } from 'zod';
import { defineRoute } from './routes';

/** `GET /v1/models`: the public API's Model. */
export const ModelResponse = z
  .object({
    model_id: z.string(),
    name: z.string(),
    description: z.string(),
    can_be_finetuned: z.boolean(),
    can_do_text_to_speech: z.boolean(),
    can_do_voice_conversion: z.boolean(),
    can_use_style: z.boolean(),
    can_use_speaker_boost: z.boolean(),
    serves_pro_voices: z.boolean(),
    token_cost_factor: z.number(),
    requires_alpha_access: z.boolean(),
    max_characters_request_free_user: z.number().int(),
    max_characters_request_subscribed_user: z.number().int(),
    maximum_text_length_per_request: z.number().int(),
    languages: z.array(z.object({ language_id: z.string(), name: z.string() })),
    model_rates: z.object({ character_cost_multiplier: z.number() }),
    concurrency_group: z.string(),
    /** Parla: the model an alias (a public model id) stands for. */
    alias_of: z.string().nullable(),
  })
  .meta({ id: 'Model' });
export type ModelResponse = z.infer<typeof ModelResponse>;

export const VoiceSettings = z
  .object({
    stability: z.number().min(0).max(1).nullish(),
    similarity_boost: z.number().min(0).max(1).nullish(),
    style: z.number().min(0).max(1).nullish(),
    use_speaker_boost: z.boolean().nullish(),
    speed: z.number().min(0.7).max(1.2).nullish(),
  })
  .meta({ id: 'VoiceSettings' });
export type VoiceSettings = z.infer<typeof VoiceSettings>;

/** `GET /v1/voices/{id}`: the public API's Voice (history/voices §3). */
export const VoiceResponse = z
  .object({
    voice_id: z.string(),
    name: z.string(),
    category: z.enum(['generated', 'cloned', 'premade', 'professional', 'famous', 'high_quality']),
    description: z.string().nullable(),
    labels: z.record(z.string(), z.string()),
    preview_url: z.string().nullable(),
    available_for_tiers: z.array(z.string()),
    settings: VoiceSettings.nullable(),
    sharing: z.object({}).loose().nullable(),
    high_quality_base_model_ids: z.array(z.string()),
    verified_languages: z.array(
      z.object({
        language: z.string(),
        model_id: z.string(),
        accent: z.string().nullish(),
        preview_url: z.string().nullish(),
      }),
    ),
    safety_control: z.enum(['NONE', 'BAN', 'CAPTCHA']).nullable(),
    voice_verification: z.object({
      requires_verification: z.boolean(),
      is_verified: z.boolean(),
      verification_failures: z.array(z.string()),
      verification_attempts_count: z.number().int(),
    }),
    /** The uploaded samples of an own voice; null for premade voices. */
    samples: z
      .array(
        z.object({
          sample_id: z.string(),
          file_name: z.string(),
          mime_type: z.string(),
          size_bytes: z.number().int(),
          hash: z.string(),
          duration_secs: z.number(),
        }),
      )
      .nullish(),
    /** A professional clone's training: state per model. */
    fine_tuning: z
      .object({
        is_allowed_to_fine_tune: z.boolean(),
        state: z.record(z.string(), z.string()),
        verification_failures: z.array(z.string()),
        verification_attempts_count: z.number().int(),
        manual_verification_requested: z.boolean(),
        progress: z.record(z.string(), z.number()).nullish(),
      })
      .nullish(),
    is_owner: z.boolean(),
    is_legacy: z.boolean(),
    is_mixed: z.boolean(),
    created_at_unix: z.number().int().nullable(),
  })
  .meta({ id: 'Voice' });
export type VoiceResponse = z.infer<typeof VoiceResponse>;

export const listModelsRoute = defineRoute({
  method: 'GET',
  path: '/v1/models',
  summary: 'The speech models, with the public model ids as aliases',
  tags: ['models'],
  response: z.array(ModelResponse),
});

export const listVoicesRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices',
  summary: 'Every voice the caller may use',
  tags: ['voices'],
  query: z.object({ show_legacy: z.enum(['true', 'false']).optional() }),
  response: z.object({ voices: z.array(VoiceResponse) }),
});

/** history/voices §3 "Voice list query"; §9: page size 20 by default, at most 100. */
export const SearchVoicesQuery = z.object({
  search: z.string().max(200).optional(),
  sort: z.enum(['created_at_unix', 'name']).optional(),
  sort_direction: z.enum(['asc', 'desc']).optional(),
  voice_type: z.enum(['personal', 'community', 'default', 'workspace', 'non-default']).optional(),
  category: z.enum(['premade', 'cloned', 'generated', 'professional']).optional(),
  fine_tuning_state: z.string().max(50).optional(),
  collection_id: z.string().max(100).optional(),
  include_total_count: z.enum(['true', 'false']).default('true'),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  next_page_token: z.string().max(200).optional(),
  voice_ids: z.union([z.string(), z.array(z.string())]).optional(),
});

export const searchVoicesRoute = defineRoute({
  method: 'GET',
  path: '/v2/voices',
  summary: 'Search the voices, a page at a time',
  tags: ['voices'],
  query: SearchVoicesQuery,
  response: z.object({
    voices: z.array(VoiceResponse),
    has_more: z.boolean(),
    total_count: z.number().int(),
    next_page_token: z.string().nullable(),
  }),
});

export const getVoiceRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/:voice_id',
  summary: 'One voice',
  tags: ['voices'],
  params: z.object({ voice_id: z.string().max(100) }),
  query: z.object({ with_settings: z.enum(['true', 'false']).optional() }),
  response: VoiceResponse,
});

export const getDefaultVoiceSettingsRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/settings/default',
  summary: 'The voice settings a voice starts with',
  tags: ['voices'],
  response: VoiceSettings,
});

export const getVoiceSettingsRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/:voice_id/settings',
  summary: 'The settings of one voice',
  tags: ['voices'],
  params: z.object({ voice_id: z.string().max(100) }),
  response: VoiceSettings,
});
