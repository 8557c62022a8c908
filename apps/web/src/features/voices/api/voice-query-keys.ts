import type { SearchVoicesQuery } from '@parla/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { LibraryFilters } from '../library-rules';

type SearchQuery = z.input<typeof SearchVoicesQuery>;

/**
 * What the voice lists filter by (history/voices §3 "Voice list query"); here, with the keys it is part of,
 * so search-voices.ts imports the keys without them importing it back.
 */
export interface VoiceSearchFilters {
  search?: string | undefined;
  voiceType?: SearchQuery['voice_type'];
  category?: SearchQuery['category'];
  collectionId?: string | undefined;
  sort?: SearchQuery['sort'];
  sortDirection?: SearchQuery['sort_direction'];
}

/**
 * The voice query keys, all under `['voices']` but the captcha: the text-to-speech, dialogue and
 * speech-to-speech voice pickers read `['voices']` itself (`GET /v1/voices`, features/tts list-voices), so
 * invalidating the prefix refreshes the pickers, the voice lab, the library and the collections together.
 */
export const voiceQueryKeys = {
  all: ['voices'] as const,
  search: (filters: VoiceSearchFilters) => ['voices', 'search', filters] as const,
  searches: ['voices', 'search'] as const,
  shared: (filters: LibraryFilters) => ['voices', 'shared', filters] as const,
  /** The library's languages and accents: under `['voices']`, so sharing a voice refreshes them too. */
  libraryLanguages: ['voices', 'library-languages'] as const,
  libraryAccents: (language: string) => ['voices', 'library-accents', language] as const,
  sharedVoice: (publicUserId: string, voiceId: string) =>
    ['voices', 'shared-voice', publicUserId, voiceId] as const,
  collections: ['voices', 'collections'] as const,
  /** One voice (`GET /v1/voices/{id}`): a professional clone's page follows it. */
  voice: (voiceId: string) => ['voices', 'voice', voiceId] as const,
  /** A professional clone's sample: its speaker separation. */
  pvcSpeakers: (voiceId: string, sampleId: string) => ['voices', 'pvc-speakers', voiceId, sampleId] as const,
  /**
   * A voice's captcha sentence, outside `['voices']` on purpose: asking again replaces the sentence on
   * the server, so refreshing the voices must never ask for it.
   */
  captcha: (voiceId: string) => ['voice-captcha', voiceId] as const,
};

/**
 * After a voice is added, changed or deleted: every voice query (the pickers' `['voices']` included) and
 * the signed-in user (`['users', 'me']`: the plan's voice counters and subscription).
 */
export function invalidateVoices(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: voiceQueryKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['users', 'me'] }),
  ]).then(() => undefined);
}
