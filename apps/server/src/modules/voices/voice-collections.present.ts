import type { VoiceCollection } from '@parla/contracts';
import { toUnixSeconds } from '../../platform/clock';
import type { CollectionRow } from './voice-collections.store';

/**
 * A collection as the caller sees it: its voice ids only those the caller may use (premade, or an own
 * voice the caller holds a role on). Collections are workspace-wide, but a member's unshared voice is
 * not to be seen by the others, not even as an id (issue 8 sharing).
 */
export const toCollection = (row: CollectionRow, visible: ReadonlySet<string>): VoiceCollection => ({
  collection_id: row.id,
  title: row.name,
  name: row.name,
  icon: row.icon,
  // Collections belong to the workspace: every member may change them.
  permission_on_resource: 'admin',
  voice_ids: row.voiceIds.filter((id) => visible.has(id)),
  created_at_unix: toUnixSeconds(row.createdAt),
});
