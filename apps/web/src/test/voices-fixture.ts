import {
  type LibraryVoice,
  LibraryVoice as LibraryVoiceSchema,
  type VoiceCollection,
  type VoiceResponse,
} from '@parla/contracts';
import { makeVoice } from './catalogue-fixture';

/** One sample of an own voice, as the API lists it. */
export function makeSample(
  overrides: Partial<NonNullable<VoiceResponse['samples']>[number]> = {},
): NonNullable<VoiceResponse['samples']>[number] {
  return {
    sample_id: 's1',
    file_name: 'take-1.wav',
    mime_type: 'audio/wav',
    size_bytes: 480_000,
    hash: 'h',
    duration_secs: 12.4,
    ...overrides,
  };
}

/** A contract-valid instant clone of the caller's workspace; `overrides` change any field. */
export function makeOwnVoice(overrides: Partial<VoiceResponse> = {}): VoiceResponse {
  const voiceId = overrides.voice_id ?? 'c1';
  return makeVoice({
    voice_id: voiceId,
    name: 'My clone',
    category: 'cloned',
    labels: { language: 'en' },
    preview_url: `http://localhost/v1/voices/${voiceId}/preview`,
    settings: { stability: 0.5, similarity_boost: 0.75, style: 0, use_speaker_boost: true, speed: 1 },
    samples: [makeSample()],
    is_owner: true,
    created_at_unix: 1_750_000_000,
    ...overrides,
  });
}

/** A contract-valid voice of the library; `overrides` change any field. */
export function makeLibraryVoice(overrides: Partial<LibraryVoice> = {}): LibraryVoice {
  return LibraryVoiceSchema.parse({
    public_owner_id: 'owner1',
    voice_id: 'lib1',
    date_unix: 1_750_000_000,
    name: 'Narrator Nell',
    accent: 'british',
    gender: 'female',
    age: 'middle_aged',
    descriptive: 'calm',
    use_case: 'narration',
    category: 'cloned',
    language: 'en',
    description: 'A calm British narrator.',
    preview_url: 'http://localhost/v1/voices/lib1/preview',
    usage_character_count_1y: 0,
    usage_character_count_7d: 0,
    play_api_usage_character_count_1y: 0,
    cloned_by_count: 12,
    free_users_allowed: true,
    live_moderation_enabled: false,
    featured: false,
    is_added_by_user: false,
    ...overrides,
  });
}

/** A collection of voices. */
export function makeCollection(overrides: Partial<VoiceCollection> = {}): VoiceCollection {
  return {
    collection_id: 'col1',
    title: overrides.name ?? 'Podcast cast',
    name: 'Podcast cast',
    icon: '',
    permission_on_resource: 'admin',
    voice_ids: [],
    created_at_unix: 1_750_000_000,
    ...overrides,
  };
}

/** One page of `GET /v2/voices`, the last. */
export function voicePage(voices: VoiceResponse[]) {
  return { voices, has_more: false, total_count: voices.length, next_page_token: null };
}

/** One page of `GET /v1/shared-voices`. */
export function libraryPage(voices: LibraryVoice[], hasMore = false, total = voices.length) {
  return { voices, has_more: hasMore, total_count: total, last_sort_id: voices.at(-1)?.voice_id ?? null };
}
