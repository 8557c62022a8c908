import {
  EXTERNAL_MODEL_ID,
  type ModelResponse,
  type VoiceResponse,
  type VoiceSettings,
} from '@parla/contracts';

/**
 * The app's default text-to-speech model: Parla Neural v1, which the public API's default id
 * (`eleven_multilingual_v2`, history/voices §9) is an alias of (issue 27, decision record 0021).
 */
export const defaultModelId = 'parla_neural_v1';

/** The classic model, which speaks every voice: the default for a voice with no neural version. */
export const classicModelId = 'parla_v1';

/** Parla's neural models: they speak only the premade voices that list them (`high_quality_base_model_ids`). */
export const NEURAL_MODEL_IDS: readonly string[] = ['parla_neural_v1', 'parla_neural_fast_v1'];

/**
 * The model the page starts with for a voice: the neural one when the server offers it and the voice has
 * a neural version, else the classic one (an own voice, a voice of a language the neural model does not
 * speak, or a server whose neural model is unavailable).
 */
export function defaultModelFor(
  offered: readonly string[],
  voice: Pick<VoiceResponse, 'high_quality_base_model_ids'> | undefined,
): string {
  const neural =
    offered.includes(defaultModelId) && voice?.high_quality_base_model_ids?.includes(defaultModelId);
  return neural ? defaultModelId : classicModelId;
}

/**
 * The voice the page starts with: the first neural one (a premade voice the neural model speaks), else
 * the first voice.
 */
export function defaultVoiceOf<V extends Pick<VoiceResponse, 'voice_id' | 'high_quality_base_model_ids'>>(
  voices: readonly V[],
): V | undefined {
  return voices.find((v) => v.high_quality_base_model_ids?.includes(defaultModelId)) ?? voices[0];
}

type CatalogueModel = Pick<ModelResponse, 'model_id' | 'alias_of'>;

/**
 * The models the app offers: Parla's own. A public model id (`eleven_multilingual_v2`, `eleven_v3`…) is an
 * alias that behaves as its Parla model; it stays an API id and is listed on "About the models", never
 * offered under a name of its own (issue 26 item 7).
 */
export function ownModels<M extends CatalogueModel>(models: readonly M[]): M[] {
  return models.filter((m) => !m.alias_of);
}

/**
 * The Parla model an id stands for: itself, or what an alias maps to (a choice stored before, a default of
 * the public API such as `eleven_v3`). Unknown ids are answered as they are.
 */
export function ownModelId(models: readonly CatalogueModel[], modelId: string): string;
export function ownModelId(models: readonly CatalogueModel[], modelId: string | null): string | null;
export function ownModelId(models: readonly CatalogueModel[], modelId: string | null): string | null {
  if (modelId === null) return null;
  return models.find((m) => m.model_id === modelId)?.alias_of ?? modelId;
}

/** The name the app shows for a model id: its Parla model's; an id the catalogue lacks as it is. */
export function modelDisplayName(models: readonly ModelResponse[], modelId: string): string {
  const id = ownModelId(models, modelId);
  return models.find((m) => m.model_id === id)?.name ?? modelId;
}

/** The settings the page edits: every field of the public API's voice settings, none missing. */
export type EditableVoiceSettings = Required<{ [K in keyof VoiceSettings]: NonNullable<VoiceSettings[K]> }>;

/** Used until the server's defaults arrive (the same as `GET /v1/voices/settings/default`). */
export const fallbackVoiceSettings: EditableVoiceSettings = {
  stability: 0.5,
  similarity_boost: 0.75,
  style: 0,
  use_speaker_boost: true,
  speed: 1,
};

/** Why a voice setting does nothing with this model and voice (one line for the page), or null. */
export interface SettingLimits {
  similarity: string | null;
  style: string | null;
  speakerBoost: string | null;
}

/**
 * Which settings change the audio with a model and voice (issue 18 item 3): similarity moves an own
 * voice (clone, designed, professional) towards its sample, so a premade voice, or a server's own voice
 * through the external model, has nothing to move; style and speaker boost follow the model's
 * `can_use_style` / `can_use_speaker_boost`.
 */
export function settingLimits(
  model:
    | Pick<ModelResponse, 'model_id' | 'name' | 'alias_of' | 'can_use_style' | 'can_use_speaker_boost'>
    | undefined,
  voice: Pick<VoiceResponse, 'category'> | undefined,
): SettingLimits {
  const external =
    model !== undefined && (model.model_id === EXTERNAL_MODEL_ID || model.alias_of === EXTERNAL_MODEL_ID);
  return {
    similarity:
      voice?.category === 'premade'
        ? 'Similarity moves your own voices towards their samples; premade voices sound the same at any value.'
        : external
          ? 'The external speech server speaks with its own voices: similarity does not apply.'
          : null,
    style: model && !model.can_use_style ? `${model.name} has no style exaggeration.` : null,
    speakerBoost: model && !model.can_use_speaker_boost ? `${model.name} has no speaker boost.` : null,
  };
}

/** The public API's speed range of voice settings. */
export const speedRange = { min: 0.7, max: 1.2, step: 0.01 } as const;

/**
 * Credits a text costs with a model, as the server charges them: characters × the model's cost factor,
 * rounded up, at least 1 for any text (accounts §9 "characters charged per model cost factor").
 */
export function estimateCredits(
  text: string,
  model: Pick<ModelResponse, 'token_cost_factor'> | undefined,
): number {
  if (text.length === 0) return 0;
  return Math.max(1, Math.ceil(text.length * (model?.token_cost_factor ?? 1)));
}

/** Credits left on the plan (history/voices §9 "Remaining = limit minus used; -1 means unlimited"). */
export function remainingCredits(subscription: { character_count: number; character_limit: number }): number {
  if (subscription.character_limit === -1) return -1;
  return Math.max(0, subscription.character_limit - subscription.character_count);
}

/** The stored choice when it is still offered, else the fallback, else the first offered. */
export function pickStored<T extends string>(
  stored: string | null,
  offered: readonly T[],
  fallback: T,
): T | undefined {
  if (stored && offered.includes(stored as T)) return stored as T;
  if (offered.includes(fallback)) return fallback;
  return offered[0];
}

/** Whether a model speaks a voice's language (`labels.language`); a voice without one is spoken by any. */
export function modelSpeaksVoice(
  model: Pick<ModelResponse, 'languages' | 'model_id'>,
  voice: Pick<VoiceResponse, 'labels' | 'high_quality_base_model_ids'>,
): boolean {
  // A neural model speaks the premade voices it has a version of, which list it.
  if (NEURAL_MODEL_IDS.includes(model.model_id))
    return voice.high_quality_base_model_ids?.includes(model.model_id) ?? false;
  const language = voice.labels.language;
  if (!language) return true;
  return model.languages.some((l) => l.language_id === language);
}

/** Ctrl+Enter (⌘+Enter on a Mac) generates. */
export function isGenerateShortcut(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'isComposing'>,
): boolean {
  return event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.isComposing;
}

/** The file name a generation is saved under: voice, the start of the text and the time, sanitised. */
export function generationFileName(
  item: { voice_name: string; text: string; date_unix: number },
  extension = 'mp3',
): string {
  const stamp = new Date(item.date_unix * 1000)
    .toISOString()
    .slice(0, 19)
    .replace(/[-:]/g, '')
    .replace('T', '-');
  const words = item.text
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .split(/\s+/)
    .slice(0, 4)
    .join('_');
  const base = [item.voice_name, words, stamp]
    .filter(Boolean)
    .join('_')
    .replace(/[^\p{L}\p{M}\p{N}_.-]/gu, '')
    .slice(0, 120);
  return `${base || 'speech'}.${extension}`;
}
