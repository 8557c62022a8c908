import {
  EXTERNAL_MODEL_ID,
  findModel,
  findPremadeVoice,
  type NeuralAvailability,
  type PremadeVoice,
  TTS_MODELS,
  type TtsModel,
  type VoiceResponse,
  type VoiceSettings,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import type { ModelAvailability as StoreAvailability } from '../../platform/models/model-store';
import { voiceNotFound } from './speaking-voice';
import { voiceUsageRow, workspaceVoiceIdsOf } from './voices.store';

/** The settings a voice starts with (the public API's defaults). */
export const DEFAULT_VOICE_SETTINGS: Required<{ [K in keyof VoiceSettings]: NonNullable<VoiceSettings[K]> }> =
  {
    stability: 0.5,
    similarity_boost: 0.75,
    style: 0,
    use_speaker_boost: true,
    speed: 1,
  };

/**
 * Whether the optional models can be offered: the external one needs TTS_OPENAI_URL, the neural ones
 * their files in the model store (`store`; none given: a test's fake engines, taken as available).
 */
export interface ModelAvailability {
  external: boolean;
  store?: StoreAvailability | undefined;
}

/** The neural models of the text-to-speech catalogue, by the model store's id of their files. */
const NEURAL_STORE_MODELS = { kokoro: 'kokoro-82m', piper: 'piper-joe' } as const;

/** Which neural models this server can run now (the model store's state). */
export function neuralAvailability(availability: Pick<ModelAvailability, 'store'>): NeuralAvailability {
  const { store } = availability;
  return {
    kokoro: store?.status(NEURAL_STORE_MODELS.kokoro).available ?? true,
    piper: store?.status(NEURAL_STORE_MODELS.piper).available ?? true,
  };
}

/** Why a neural model is unavailable here (the store's reason), or undefined when it is not one or is there. */
function unavailableReason(model: TtsModel, availability: ModelAvailability): string | undefined {
  if (model.alias_of || (model.engine !== 'kokoro' && model.engine !== 'piper')) return undefined;
  const status = availability.store?.status(NEURAL_STORE_MODELS[model.engine]);
  return status && !status.available ? (status.reason ?? 'unavailable') : undefined;
}

const isAvailable = (model: TtsModel, availability: ModelAvailability) =>
  (model.model_id !== EXTERNAL_MODEL_ID || availability.external) &&
  unavailableReason(model, availability) === undefined;

/** The models `GET /v1/models` lists: all but the external one when it is not configured and the neural ones the model store lacks. */
export function listModels(availability: ModelAvailability): TtsModel[] {
  return TTS_MODELS.filter((m) => isAvailable(m, availability));
}

export function getVoice(voiceId: string): PremadeVoice {
  const voice = findPremadeVoice(voiceId);
  if (!voice) throw voiceNotFound(voiceId);
  return voice;
}

/** What a request needs its model to do: speak text, or convert speech (the model's `can_do_*` flags). */
export type ModelCapability = 'text_to_speech' | 'voice_conversion';

/**
 * The model a request names, refused with a 422 on `model_id` when it does not exist here or cannot do
 * what the request asks (a speech-to-speech model for text, or a text-to-speech model for speech).
 */
export function getModel(
  modelId: string,
  availability: ModelAvailability,
  capability: ModelCapability = 'text_to_speech',
): TtsModel {
  const found = findModel(modelId);
  const missing = found && unavailableReason(found, availability);
  if (found && missing)
    throw new AppError(
      'service_unavailable',
      `${found.name} is unavailable on this server: ${missing}. Parla v1 (parla_v1) and the public model ids keep speaking.`,
    );
  const model = found && isAvailable(found, availability) ? found : undefined;
  if (!model) throw invalidModel(`A model with model ID ${modelId} does not exist.`);
  if (capability === 'text_to_speech' && !model.can_do_text_to_speech)
    throw invalidModel(`The model ${modelId} converts speech to speech; it cannot speak text.`);
  if (capability === 'voice_conversion' && !model.can_do_voice_conversion)
    throw invalidModel(
      `The model ${modelId} cannot do speech to speech; use a model whose can_do_voice_conversion is true (e.g. eleven_multilingual_sts_v2).`,
    );
  return model;
}

const invalidModel = (message: string) =>
  new AppError('invalid_request', message, {
    errors: [{ loc: ['body', 'model_id'], msg: message, type: 'value_error' }],
  });

export interface VoiceSearch {
  search?: string | undefined;
  sort?: 'created_at_unix' | 'name' | undefined;
  sortDirection?: 'asc' | 'desc' | undefined;
  voiceType?: string | undefined;
  category?: string | undefined;
  pageSize: number;
  nextPageToken?: string | undefined;
  voiceIds?: string[] | undefined;
}

/** The page token: the offset of the next page, opaque to clients. */
const encodeToken = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
function decodeToken(token: string | undefined): number {
  if (!token) return 0;
  const match = Buffer.from(token, 'base64url')
    .toString()
    .match(/^o:(\d{1,7})$/);
  if (!match) throw new AppError('invalid_request', 'The next_page_token is not one this server gave out.');
  return Number(match[1]);
}

/** A voice offered to `GET /v2/voices`, with what its filters read. */
export interface VoiceEntry {
  voice: VoiceResponse;
  /**
   * §3 voice_type: premade voices are `default`; the caller's own voices `personal` (made here) or
   * `community` (from the library); `workspace` those another member shared with them.
   */
  type: 'default' | 'personal' | 'community' | 'workspace';
}

/**
 * `GET /v2/voices` over the premade voices and the workspace's own: search in name, description and
 * labels, filters (voice_type, category, fine_tuning_state, collection, ids), sort, and pages with an
 * opaque token.
 */
export function searchVoices(
  entries: readonly VoiceEntry[],
  query: VoiceSearch & {
    fineTuningState?: string | undefined;
    collectionVoiceIds?: readonly string[] | undefined;
  },
): {
  voices: VoiceResponse[];
  hasMore: boolean;
  total: number;
  nextPageToken: string | null;
} {
  const typeMatches = (type: VoiceEntry['type']) => {
    switch (query.voiceType) {
      case undefined:
        return true;
      case 'non-default':
        return type !== 'default';
      case 'workspace':
        return type === 'personal' || type === 'workspace';
      default:
        return type === query.voiceType;
    }
  };
  let voices = entries.filter((e) => typeMatches(e.type)).map((e) => e.voice);
  if (query.category) voices = voices.filter((v) => v.category === query.category);
  if (query.fineTuningState)
    voices = voices.filter((v) =>
      Object.values(v.fine_tuning?.state ?? {}).includes(query.fineTuningState as string),
    );
  if (query.collectionVoiceIds) voices = voices.filter((v) => query.collectionVoiceIds?.includes(v.voice_id));
  if (query.voiceIds?.length) voices = voices.filter((v) => query.voiceIds?.includes(v.voice_id));
  const needle = query.search?.trim().toLowerCase();
  if (needle) {
    voices = voices.filter((v) =>
      [v.name, v.description ?? '', ...Object.values(v.labels)].some((field) =>
        field.toLowerCase().includes(needle),
      ),
    );
  }
  if (query.sort === 'created_at_unix') {
    voices.sort(
      (a, b) => (a.created_at_unix ?? 0) - (b.created_at_unix ?? 0) || a.name.localeCompare(b.name),
    );
  } else {
    voices.sort((a, b) => a.name.localeCompare(b.name));
  }
  if (query.sortDirection === 'desc') voices.reverse();
  const offset = decodeToken(query.nextPageToken);
  const page = voices.slice(offset, offset + query.pageSize);
  const hasMore = offset + query.pageSize < voices.length;
  return {
    voices: page,
    hasMore,
    total: voices.length,
    nextPageToken: hasMore ? encodeToken(offset + query.pageSize) : null,
  };
}

/**
 * A workspace's voice usage for its subscription (accounts §3 voice_slots_used,
 * professional_voice_slots_used, voice_add_edit_counter).
 */
export function voiceUsageOf(
  db: Db,
  workspaceId: string,
): Promise<{ used: number; professional: number; addEdits: number }> {
  return voiceUsageRow(db, workspaceId);
}

/** The ids of a workspace's own voices: read before the workspace is deleted, for `workspace.deleted`. */
export function workspaceVoiceIds(db: Db, workspaceId: string): Promise<string[]> {
  return workspaceVoiceIdsOf(db, workspaceId);
}
