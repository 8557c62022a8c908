import { COLLECTION_VOICE_LIMIT, findPremadeVoice, type VoiceCollection } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { VoiceCaller } from './own-voices.service';
import { voiceNotFound } from './speaking-voice';
import { toCollection } from './voice-collections.present';
import {
  type CollectionRow,
  deleteCollectionRow,
  findCollectionRow,
  insertCollection,
  listCollectionRows,
  updateCollectionRow,
  usableOwnVoiceIds,
  workspaceOwnVoiceIds,
} from './voice-collections.store';

/*
 * Voice collections (history/voices §2 voice-lab/collections): named groups of a workspace's voices,
 * each member seeing only the voices they may use.
 */

/**
 * Of these ids, the premade voices and the own voices `ownIdsAmong` admits (one query): the caller's
 * usable ones, or all of the workspace's that still exist.
 */
async function voiceIdsAmong(
  ids: readonly string[],
  ownIdsAmong: (own: readonly string[]) => Promise<string[]>,
): Promise<Set<string>> {
  const found = new Set(ids.filter((id) => findPremadeVoice(id)));
  const own = [...new Set(ids.filter((id) => !found.has(id) && id.length <= 100))];
  for (const id of await ownIdsAmong(own)) found.add(id);
  return found;
}

/** Of these ids, the ones the caller may use: premade voices and own voices the caller holds a role on. */
const usableVoiceIds = (db: Db, caller: VoiceCaller, ids: readonly string[]) =>
  voiceIdsAmong(ids, (own) => usableOwnVoiceIds(db, caller, own));

/** Of these ids, the ones still naming a voice: premade, or an own voice of the workspace (anyone's). */
const existingVoiceIds = (db: Db, workspaceId: string, ids: readonly string[]) =>
  voiceIdsAmong(ids, (own) => workspaceOwnVoiceIds(db, workspaceId, own));

interface CollectionInput {
  title?: string | undefined;
  name?: string | undefined;
  icon?: string | undefined;
  voice_ids?: string[] | undefined;
}

/** A collection of the workspace (its row locked when asked); 404 otherwise. */
async function getCollectionRow(
  db: Db,
  workspaceId: string,
  id: string,
  lock = false,
): Promise<CollectionRow> {
  const row = await findCollectionRow(db, workspaceId, id, lock);
  if (!row) throw notFound('The collection');
  return row;
}

/**
 * The caller's new list merged into the stored one: the voices the caller cannot see keep their places,
 * the caller's voices fill the other places in the order given, and ids of deleted voices drop out.
 */
export function mergeCollectionVoices(
  stored: readonly string[],
  hidden: ReadonlySet<string>,
  given: readonly string[],
): string[] {
  const queue = [...new Set(given)].filter((id) => !hidden.has(id));
  const merged: string[] = [];
  for (const id of stored) {
    if (hidden.has(id)) merged.push(id);
    else if (queue.length > 0) merged.push(queue.shift() as string);
  }
  return [...new Set([...merged, ...queue])];
}

function assertCollectionRoom(voiceIds: readonly string[]): void {
  if (voiceIds.length > COLLECTION_VOICE_LIMIT) {
    throw new AppError(
      'invalid_request',
      `A collection holds at most ${COLLECTION_VOICE_LIMIT} voices, including those other members added.`,
    );
  }
}

async function shownToCaller(db: Db, caller: VoiceCaller, row: CollectionRow): Promise<VoiceCollection> {
  return toCollection(row, await usableVoiceIds(db, caller, row.voiceIds));
}

export async function listCollections(db: Db, caller: VoiceCaller): Promise<VoiceCollection[]> {
  const rows = await listCollectionRows(db, caller.workspaceId);
  const visible = await usableVoiceIds(
    db,
    caller,
    rows.flatMap((row) => row.voiceIds),
  );
  return rows.map((row) => toCollection(row, visible));
}

export async function getCollection(db: Db, caller: VoiceCaller, id: string): Promise<VoiceCollection> {
  return shownToCaller(db, caller, await getCollectionRow(db, caller.workspaceId, id));
}

/** Refuses ids of voices the caller cannot use (unknown, another workspace's, a member's not shared). */
async function assertUsableVoices(
  db: Db,
  caller: VoiceCaller,
  ids: readonly string[] | undefined,
): Promise<void> {
  const wanted = [...new Set(ids ?? [])];
  const usable = await usableVoiceIds(db, caller, wanted);
  const unusable = wanted.find((id) => !usable.has(id));
  if (unusable !== undefined) throw voiceNotFound(unusable);
}

export async function createCollection(
  db: Db,
  caller: VoiceCaller,
  body: CollectionInput,
): Promise<VoiceCollection> {
  const { workspaceId } = caller;
  await assertUsableVoices(db, caller, body.voice_ids);
  const row = await insertCollection(db, {
    id: newId(),
    workspaceId,
    name: body.title ?? body.name ?? '',
    icon: body.icon ?? '',
    voiceIds: [...new Set(body.voice_ids ?? [])],
  });
  return shownToCaller(db, caller, row);
}

/**
 * Renames a collection or replaces its voices. A new `voice_ids` replaces only what the caller can see:
 * voices other members added that the caller may not use stay in the collection, in their places. The row
 * is locked for the change, so a concurrent addition is never lost.
 */
export async function updateCollection(
  db: Db,
  caller: VoiceCaller,
  id: string,
  body: CollectionInput,
): Promise<VoiceCollection> {
  const { workspaceId } = caller;
  const row = await db.transaction(async (tx) => {
    const current = await getCollectionRow(tx, workspaceId, id, true);
    await assertUsableVoices(tx, caller, body.voice_ids);
    let voiceIds = current.voiceIds;
    if (body.voice_ids) {
      const visible = await usableVoiceIds(tx, caller, current.voiceIds);
      const existing = await existingVoiceIds(tx, workspaceId, current.voiceIds);
      const hidden = new Set(current.voiceIds.filter((v) => !visible.has(v) && existing.has(v)));
      voiceIds = mergeCollectionVoices(current.voiceIds, hidden, body.voice_ids);
      assertCollectionRoom(voiceIds);
    }
    return updateCollectionRow(tx, workspaceId, id, {
      name: body.title ?? body.name ?? current.name,
      icon: body.icon ?? current.icon,
      voiceIds,
    });
  });
  return shownToCaller(db, caller, row);
}

export async function deleteCollection(db: Db, workspaceId: string, id: string): Promise<void> {
  await getCollectionRow(db, workspaceId, id);
  await deleteCollectionRow(db, workspaceId, id);
}

/**
 * Adds a voice to a collection, or takes it out. Either way the voice must be one the caller may use
 * (premade, or an own voice the caller holds a role on): 404 `voice_not_found` otherwise, so the answer
 * never tells whether an unseen voice is in the collection.
 */
export async function setCollectionVoice(
  db: Db,
  caller: VoiceCaller,
  collectionId: string,
  voiceId: string,
  present: boolean,
): Promise<{ collection_id: string; voice_id: string }> {
  const { workspaceId } = caller;
  await db.transaction(async (tx) => {
    const current = await getCollectionRow(tx, workspaceId, collectionId, true);
    await assertUsableVoices(tx, caller, [voiceId]);
    const voiceIds = present
      ? [...new Set([...current.voiceIds, voiceId])]
      : current.voiceIds.filter((id) => id !== voiceId);
    assertCollectionRoom(voiceIds);
    await updateCollectionRow(tx, workspaceId, collectionId, { voiceIds });
  });
  return { collection_id: collectionId, voice_id: voiceId };
}
