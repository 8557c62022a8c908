import type { LibraryVoice } from '@parla/contracts';
import { toUnixSeconds } from '../../platform/clock';
import { previewUrl } from './voices.present';
import type { VoiceRow } from './voices.tables';

/** A shared voice as the library lists it (the public API's LibraryVoiceResponse). */
export function toLibraryVoice(row: VoiceRow, publicUrl: string, addedByCaller: boolean): LibraryVoice {
  // The voice's own labels only: its base voice's (accent, age…) say nothing about how it sounds.
  const labels = row.labels as Record<string, string | undefined>;
  return {
    public_owner_id: row.publicOwnerId ?? '',
    voice_id: row.id,
    date_unix: toUnixSeconds(row.sharedAt ?? row.createdAt),
    name: row.name,
    accent: labels.accent ?? '',
    gender: labels.gender ?? '',
    age: labels.age ?? '',
    descriptive: labels.descriptive ?? '',
    use_case: labels.use_case ?? '',
    category: row.category,
    language: row.language,
    description: row.description,
    preview_url: previewUrl(publicUrl, row.id),
    usage_character_count_1y: 0,
    usage_character_count_7d: 0,
    play_api_usage_character_count_1y: 0,
    cloned_by_count: row.clonedByCount,
    free_users_allowed: row.freeUsersAllowed,
    live_moderation_enabled: row.liveModerationEnabled,
    // The installation's curated voices are the library's featured ones (issue 18 item 6: built in).
    featured: row.builtIn,
    is_added_by_user: addedByCaller,
  };
}
