import { z } from 'zod';
import { defineRoute } from './routes';
import { formBool } from './speech-to-speech';
import { VoiceResponse, VoiceSettings } from './voices';

/*
 * A workspace's own voices (issue 7): instant clones, edits, samples, settings, the voice library and
 * voice design. Multipart calls carry no JSON body in their descriptor; their fields are read with the
 * schemas here.
 */

/** Samples per instant clone, and the size of one (the public API's bounds). */
export const IVC_MAX_FILES = 25;
export const VOICE_SAMPLE_MAX_BYTES = 11 * 1024 * 1024;
/**
 * The longest an instant-clone sample (or a recording for similar voices) may be: its profile is made from
 * all of it. A longer one is refused, by its header before anything is decoded, or by the decode, which
 * stops just past this (history/voices §5 sets no length; this is what the profile reads).
 */
export const VOICE_SAMPLE_MAX_SECONDS = 600;
/** A voice's name, and its description. */
export const VOICE_NAME_MAX = 100;
export const VOICE_DESCRIPTION_MAX = 500;

/** `labels` as multipart sends it: a JSON object of strings, as a string. */
const labelsField = z
  .string()
  .max(4000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'labels is not a valid JSON string.' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string().max(50), z.string().max(100)).nullable());

/** The text fields of `POST /v1/voices/add` (BodyAddVoiceV1VoicesAddPost). */
export const AddVoiceFields = z.object({
  name: z.string().trim().min(1, 'Give the voice a name.').max(VOICE_NAME_MAX),
  description: z.string().max(VOICE_DESCRIPTION_MAX).optional(),
  labels: labelsField.optional(),
  remove_background_noise: formBool.default(false),
});
export type AddVoiceFields = z.infer<typeof AddVoiceFields>;

/** The text fields of `POST /v1/voices/{id}/edit`: as adding, files optional. */
export const EditVoiceFields = AddVoiceFields;

const voiceParams = z.object({ voice_id: z.string().max(100) });

export const addVoiceRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/add',
  summary: 'An instant voice clone from samples (multipart: files, name, description, labels…)',
  tags: ['voices'],
  response: z.object({ voice_id: z.string(), requires_verification: z.boolean() }),
});

export const editVoiceRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/:voice_id/edit',
  summary: 'Rename, describe or relabel an own voice, or add samples to it (multipart)',
  tags: ['voices'],
  params: voiceParams,
  response: z.object({ status: z.literal('ok') }),
});

export const deleteVoiceRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/voices/:voice_id',
  summary: 'Delete an own voice and its samples',
  tags: ['voices'],
  params: voiceParams,
  response: z.object({ status: z.literal('ok') }),
});

const sampleParams = z.object({ voice_id: z.string().max(100), sample_id: z.string().max(100) });

export const deleteVoiceSampleRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/voices/:voice_id/samples/:sample_id',
  summary: "Delete one of an own voice's samples (the profile is measured again from the rest)",
  tags: ['voices'],
  params: sampleParams,
  response: z.object({ status: z.literal('ok') }),
});

export const voiceSampleAudioRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/:voice_id/samples/:sample_id/audio',
  summary: 'A sample as uploaded',
  tags: ['voices'],
  params: sampleParams,
  response: z.any().meta({ description: 'The sample file' }),
});

export const editVoiceSettingsRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/:voice_id/settings/edit',
  summary: "Set an own voice's default settings",
  tags: ['voices'],
  params: voiceParams,
  body: VoiceSettings,
  response: z.object({ status: z.literal('ok') }),
});

/** Sharing an own voice in the library (history/voices §3 sharing: status, live_moderation_enabled). */
export const ShareVoiceBody = z.object({
  enabled: z.boolean(),
  /** The name and description the library shows; the voice's own when left out. */
  name: z.string().trim().min(1).max(VOICE_NAME_MAX).optional(),
  description: z.string().max(VOICE_DESCRIPTION_MAX).optional(),
  live_moderation_enabled: z.boolean().optional(),
  free_users_allowed: z.boolean().optional(),
});
export type ShareVoiceBody = z.infer<typeof ShareVoiceBody>;

export const shareVoiceRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/:voice_id/share',
  summary: 'Share an own voice in the voice library, or stop sharing it',
  tags: ['voices'],
  params: voiceParams,
  body: ShareVoiceBody,
  response: VoiceResponse,
});

/** One voice of the library (the public API's LibraryVoiceResponse). */
export const LibraryVoice = z
  .object({
    public_owner_id: z.string(),
    voice_id: z.string(),
    date_unix: z.number().int(),
    name: z.string(),
    accent: z.string(),
    gender: z.string(),
    age: z.string(),
    descriptive: z.string(),
    use_case: z.string(),
    category: z.enum(['generated', 'cloned', 'premade', 'professional', 'famous', 'high_quality']),
    language: z.string().nullish(),
    description: z.string().nullish(),
    preview_url: z.string().nullish(),
    usage_character_count_1y: z.number().int(),
    usage_character_count_7d: z.number().int(),
    play_api_usage_character_count_1y: z.number().int(),
    cloned_by_count: z.number().int(),
    free_users_allowed: z.boolean(),
    live_moderation_enabled: z.boolean(),
    featured: z.boolean(),
    is_added_by_user: z.boolean().nullish(),
  })
  .meta({ id: 'LibraryVoice' });
export type LibraryVoice = z.infer<typeof LibraryVoice>;

const listParam = z.union([z.string().max(100), z.array(z.string().max(100)).max(20)]).optional();

export const SharedVoicesQuery = z.object({
  page_size: z.coerce.number().int().min(1).max(100).default(30),
  page: z.coerce.number().int().min(0).max(10_000).default(0),
  category: z.enum(['professional', 'famous', 'high_quality', 'cloned', 'generated']).optional(),
  gender: z.string().max(50).optional(),
  age: z.string().max(50).optional(),
  accent: z.string().max(50).optional(),
  language: z.string().max(20).optional(),
  search: z.string().max(200).optional(),
  use_cases: listParam,
  descriptives: listParam,
  featured: z.enum(['true', 'false']).optional(),
  include_live_moderated: z.enum(['true', 'false']).optional(),
  owner_id: z.string().max(100).optional(),
  sort: z.enum(['created_date', 'cloned_by_count', 'usage_character_count_1y', 'name']).optional(),
});

export const sharedVoicesRoute = defineRoute({
  method: 'GET',
  path: '/v1/shared-voices',
  summary: 'The voice library: voices shared by their owners',
  tags: ['voice-library'],
  query: SharedVoicesQuery,
  response: z.object({
    voices: z.array(LibraryVoice),
    has_more: z.boolean(),
    total_count: z.number().int(),
    last_sort_id: z.string().nullable(),
  }),
});

/** A language some library voice speaks, for the library's language filter. */
export const LibraryLanguage = z
  .object({
    /** ISO 639-1, the value `GET /v1/shared-voices?language=` filters by. */
    language: z.string(),
    /** Its English name ("Finnish"); the code itself for a language Parla has no name for. */
    name: z.string(),
    /** How many voices in the library speak it (what the language filter would find). */
    voice_count: z.number().int(),
  })
  .meta({ id: 'LibraryLanguage' });
export type LibraryLanguage = z.infer<typeof LibraryLanguage>;

/**
 * Parla's own (the public API has no such call): the languages of the library's voices, so that the
 * library's language filter offers only languages that find a voice.
 */
export const sharedVoiceLanguagesRoute = defineRoute({
  method: 'GET',
  path: '/v1/shared-voices/languages',
  summary: "The languages of the voice library's voices, with how many voices speak each",
  tags: ['voice-library'],
  response: z.object({ languages: z.array(LibraryLanguage) }),
});

/** One accent of the library's voices, in the public API's VoiceAccentResponseModel shape. */
export const VoiceAccent = z
  .object({
    /** The value `GET /v1/shared-voices?accent=` filters by: the voices' accent label, lower case. */
    accent: z.string(),
    /** ISO 639-1 code of the language the voices with this accent speak. */
    language: z.string(),
    /** `<language>-<accent>`, spaces as hyphens: `en-new-york`. */
    code: z.string(),
    /** The accent as a person reads it: `New York`. */
    name: z.string(),
  })
  .meta({ id: 'VoiceAccent' });
export type VoiceAccent = z.infer<typeof VoiceAccent>;

export const voiceAccentsRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/accents',
  summary: 'The accents of the voices in the voice library, optionally of one language or one model',
  tags: ['voice-library'],
  query: z.object({
    language: z.string().max(20).optional(),
    model_id: z.string().max(100).optional(),
  }),
  response: z.object({ accents: z.array(VoiceAccent) }),
});

export const addSharedVoiceRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/add/:public_user_id/:voice_id',
  summary: "Add a library voice to the workspace's voices under a new name",
  tags: ['voice-library'],
  params: z.object({ public_user_id: z.string().max(100), voice_id: z.string().max(100) }),
  body: z.object({
    new_name: z.string().trim().min(1).max(VOICE_NAME_MAX),
    bookmarked: z.boolean().optional(),
  }),
  response: z.object({ voice_id: z.string() }),
});

/** The text fields of `POST /v1/similar-voices` (besides `audio_file`). */
export const SimilarVoicesFields = z.object({
  similarity_threshold: z.coerce.number().min(0).max(2).optional(),
  top_k: z.coerce.number().int().min(1).max(100).default(10),
});

export const similarVoicesRoute = defineRoute({
  method: 'POST',
  path: '/v1/similar-voices',
  summary: 'Library voices that sound like a recording (multipart: audio_file, similarity_threshold, top_k)',
  tags: ['voice-library'],
  response: z.object({
    voices: z.array(LibraryVoice),
    has_more: z.boolean(),
    total_count: z.number().int(),
    last_sort_id: z.string().nullable(),
  }),
});

/** The most voices one collection holds. */
export const COLLECTION_VOICE_LIMIT = 500;

/**
 * Collections (history/voices §2 voice-lab/collections, §7 "Collections: create, read, update, delete"),
 * in the public API's shape (`title`, `icon`, `permission_on_resource`) plus their `voice_ids`; `name` is
 * the same as `title`, for the web app's older calls.
 */
export const VoiceCollection = z.object({
  collection_id: z.string(),
  title: z.string(),
  name: z.string(),
  icon: z.string(),
  permission_on_resource: z.enum(['admin', 'editor', 'commenter', 'viewer']),
  voice_ids: z.array(z.string()),
  created_at_unix: z.number().int(),
});
export type VoiceCollection = z.infer<typeof VoiceCollection>;

const collectionTitle = z.string().trim().min(1, 'Give the collection a name.').max(VOICE_NAME_MAX);
const CollectionFields = z.object({
  title: collectionTitle.optional(),
  name: collectionTitle.optional(),
  icon: z.string().max(50).optional(),
  voice_ids: z.array(z.string().max(100)).max(COLLECTION_VOICE_LIMIT).optional(),
});
export const CreateCollectionBody = CollectionFields.refine(
  (b) => b.title !== undefined || b.name !== undefined,
  {
    message: 'Give the collection a title.',
    path: ['title'],
  },
);
export const UpdateCollectionBody = CollectionFields;

export const listCollectionsRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/collections',
  summary: "The workspace's voice collections",
  tags: ['voices'],
  response: z.object({ collections: z.array(VoiceCollection) }),
});

export const createCollectionRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/collections',
  summary: 'A new voice collection',
  tags: ['voices'],
  body: CreateCollectionBody,
  response: VoiceCollection,
});

const collectionParams = z.object({ collection_id: z.string().max(100) });

export const getCollectionRoute = defineRoute({
  method: 'GET',
  path: '/v1/voices/collections/:collection_id',
  summary: 'One voice collection',
  tags: ['voices'],
  params: collectionParams,
  response: VoiceCollection,
});

export const updateCollectionRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/voices/collections/:collection_id',
  summary: 'Rename a collection, or set its voices',
  tags: ['voices'],
  params: collectionParams,
  body: UpdateCollectionBody,
  response: VoiceCollection,
});

export const deleteCollectionRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/voices/collections/:collection_id',
  summary: 'Delete a collection (its voices stay)',
  tags: ['voices'],
  params: collectionParams,
  response: z.object({ collection_id: z.string(), status: z.literal('ok') }),
});

const collectionVoiceParams = collectionParams.extend({ voice_id: z.string().max(100) });

export const addVoiceToCollectionRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/collections/:collection_id/voice/:voice_id',
  summary: 'Add a voice (own or premade) to a collection',
  tags: ['voices'],
  params: collectionVoiceParams,
  response: z.object({ collection_id: z.string(), voice_id: z.string() }),
});

export const removeVoiceFromCollectionRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/voices/collections/:collection_id/voice/:voice_id',
  summary: 'Take a voice out of a collection',
  tags: ['voices'],
  params: collectionVoiceParams,
  response: z.object({ collection_id: z.string(), voice_id: z.string() }),
});

/**
 * history/voices §5: "A voice needs verification when it is unverified and verification is required or
 * the account is in probation." Such a voice cannot be used until its owner reads the captcha aloud.
 */
export function voiceNeedsVerification(
  voice: { isVerified: boolean; requiresVerification: boolean },
  ownerInProbation: boolean,
): boolean {
  return !voice.isVerified && (voice.requiresVerification || ownerInProbation);
}

/** history/voices §5, §8: what Studio says of a voice with live moderation on. */
export const LIVE_MODERATION_STUDIO_MESSAGE = 'Live moderation voices are not available in Studio';

/**
 * Why a voice cannot be used in Studio, or undefined: live-moderation voices (history/voices §5) and
 * copied_disabled copies (not usable anywhere). For Studio's voice pickers and its conversion calls.
 */
export function studioVoiceProblem(voice: {
  sharing?: { status?: unknown; live_moderation_enabled?: unknown } | null | undefined;
}): string | undefined {
  if (voice.sharing?.live_moderation_enabled === true) return LIVE_MODERATION_STUDIO_MESSAGE;
  if (voice.sharing?.status === 'copied_disabled')
    return 'This voice is no longer available: its owner has stopped sharing it.';
  return undefined;
}
