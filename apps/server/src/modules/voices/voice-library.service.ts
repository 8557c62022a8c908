import { profileDistance } from '@parla/audio';
import {
  COLLECTION_VOICE_LIMIT,
  findPremadeVoice,
  type LibraryVoice,
  type SharedVoicesQuery,
  type ShareVoiceBody,
  type VoiceCollection,
} from '@parla/contracts';
import { and, desc, eq, ilike, inArray, isNotNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { toUnixSeconds } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError, notFound } from '../../platform/errors';
import { voiceAdded } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { users } from '../users/users.tables';
import { holdsRole } from '../workspaces';
import { workspaces } from '../workspaces/workspaces.tables';
import { getOwnVoice, takeVoiceSlot, type VoiceCaller } from './own-voices.service';
import { reuseProblem, voiceColumns, voiceNotFound } from './speaking-voice';
import { previewUrl } from './voices.service';
import { type VoiceRow, voiceCollections, voices } from './voices.tables';

/*
 * The voice library (issue 7 item 5): own voices shared by their owners, listed for every workspace,
 * added to a workspace as a copy (`original_voice_id`), and found by sound (similar voices).
 */

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
    featured: false,
    is_added_by_user: addedByCaller,
  };
}

/**
 * Shares an own voice in the library, or stops sharing it (history/voices §3 sharing). Stopping turns
 * the copies other workspaces added into `copied_disabled`: §5 "not usable". Sharing again restores them.
 */
export async function shareVoice(
  db: Db,
  caller: VoiceCaller,
  voiceId: string,
  body: ShareVoiceBody,
): Promise<VoiceRow> {
  const { row } = await getOwnVoice(db, caller, voiceId, 'admin');
  if (row.originalVoiceId !== null)
    throw new AppError('bad_request', 'A voice added from the library cannot be shared again.');
  const problem = body.enabled ? await reuseProblem(db, row) : undefined;
  if (problem) throw new AppError('bad_request', `This voice cannot be shared. ${problem}`);
  const [sharer] = await db
    .select({ publicUserId: users.publicUserId })
    .from(users)
    .where(eq(users.id, caller.userId));
  await db.transaction(async (tx) => {
    await tx
      .update(voices)
      .set({
        sharingStatus: body.enabled ? 'enabled' : 'disabled',
        sharedAt: body.enabled ? (row.sharedAt ?? new Date()) : row.sharedAt,
        publicOwnerId: sharer?.publicUserId ?? row.publicOwnerId,
        name: body.name ?? row.name,
        description: body.description ?? row.description,
        liveModerationEnabled: body.live_moderation_enabled ?? row.liveModerationEnabled,
        freeUsersAllowed: body.free_users_allowed ?? row.freeUsersAllowed,
      })
      .where(eq(voices.id, row.id));
    await tx
      .update(voices)
      .set({ sharingStatus: body.enabled ? 'copied' : 'copied_disabled' })
      .where(eq(voices.originalVoiceId, row.id));
  });
  return (await getOwnVoice(db, caller, voiceId)).row;
}

const listOf = (value: string | string[] | undefined) =>
  value === undefined
    ? []
    : (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).filter(Boolean);

const labelIs = (key: string, value: string) =>
  sql`lower(${voices.labels}->>${key}) = ${value.toLowerCase()}`;

/** `GET /v1/shared-voices`: the shared voices matching the filters, a page at a time. */
export async function listSharedVoices(
  db: Db,
  caller: VoiceCaller,
  query: z.infer<typeof SharedVoicesQuery>,
  publicUrl: string,
): Promise<{ voices: LibraryVoice[]; has_more: boolean; total_count: number; last_sort_id: string | null }> {
  const where: SQL[] = [eq(voices.sharingStatus, 'enabled')];
  if (query.category) where.push(eq(voices.category, query.category as VoiceRow['category']));
  if (query.gender) where.push(labelIs('gender', query.gender));
  if (query.age) where.push(labelIs('age', query.age));
  if (query.accent) where.push(labelIs('accent', query.accent));
  if (query.language) where.push(eq(voices.language, query.language.toLowerCase().slice(0, 2)));
  if (query.owner_id) where.push(eq(voices.publicOwnerId, query.owner_id));
  if (query.featured === 'true') where.push(sql`false`);
  if (query.include_live_moderated === 'false') where.push(eq(voices.liveModerationEnabled, false));
  const useCases = listOf(query.use_cases);
  if (useCases.length) where.push(or(...useCases.map((u) => labelIs('use_case', u))) as SQL);
  const descriptives = listOf(query.descriptives);
  if (descriptives.length) where.push(or(...descriptives.map((d) => labelIs('descriptive', d))) as SQL);
  const needle = query.search?.trim();
  if (needle) {
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(or(ilike(voices.name, pattern), ilike(voices.description, pattern)) as SQL);
  }
  const order =
    query.sort === 'cloned_by_count'
      ? [desc(voices.clonedByCount), desc(voices.sharedAt), voices.id]
      : query.sort === 'name'
        ? [voices.name, voices.id]
        : [desc(voices.sharedAt), voices.id];
  const condition = and(...where);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(voices)
      .where(condition)
      .orderBy(...order)
      .limit(query.page_size + 1)
      .offset(query.page * query.page_size),
    db.select({ n: sql<number>`count(*)::int` }).from(voices).where(condition),
  ]);
  const page = rows.slice(0, query.page_size);
  const added = await addedByWorkspace(
    db,
    caller.workspaceId,
    page.map((r) => r.id),
  );
  return {
    voices: page.map((row) => toLibraryVoice(row, publicUrl, added.has(row.id))),
    has_more: rows.length > query.page_size,
    total_count: total?.n ?? 0,
    last_sort_id: page.at(-1)?.id ?? null,
  };
}

/** Which of these shared voices the workspace has added already. */
async function addedByWorkspace(db: Db, workspaceId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ original: voices.originalVoiceId })
    .from(voices)
    .where(and(eq(voices.workspaceId, workspaceId), inArray(voices.originalVoiceId, ids)));
  return new Set(rows.flatMap((r) => (r.original ? [r.original] : [])));
}

/**
 * `POST /v1/voices/add/{public_user_id}/{voice_id}`: a shared voice copied into the caller's voices under
 * `new_name` (it counts against voice_limit and the add-edits). A workspace's own shared voice is there
 * already, and adding one twice is refused.
 */
export async function addSharedVoice(
  deps: { db: Db; events: EventBus },
  caller: VoiceCaller,
  publicUserId: string,
  voiceId: string,
  newName: string,
): Promise<{ voice_id: string }> {
  const { db } = deps;
  const [original] = await db
    .select()
    .from(voices)
    .where(
      and(
        eq(voices.id, voiceId),
        eq(voices.sharingStatus, 'enabled'),
        eq(voices.publicOwnerId, publicUserId),
      ),
    );
  if (!original) throw voiceNotFound(voiceId);
  const problem = await reuseProblem(db, original);
  if (problem) throw new AppError('voice_unusable', problem);
  if (original.workspaceId === caller.workspaceId)
    throw new AppError('conflict', 'This voice is already one of your voices.');
  const id = newId();
  await db.transaction(async (tx) => {
    const [workspace] = await tx
      .select({ tier: workspaces.tier })
      .from(workspaces)
      .where(eq(workspaces.id, caller.workspaceId));
    if (!original.freeUsersAllowed && workspace?.tier === 'free')
      throw new AppError('forbidden', 'The owner of this voice has made it available on paid plans only.');
    await takeVoiceSlot(tx, caller.workspaceId, 'add');
    const [already] = await tx
      .select({ id: voices.id })
      .from(voices)
      .where(and(eq(voices.workspaceId, caller.workspaceId), eq(voices.originalVoiceId, original.id)));
    if (already) throw new AppError('conflict', 'This voice is already in your voices.');
    await tx.insert(voices).values({
      id,
      workspaceId: caller.workspaceId,
      ownerUserId: caller.userId,
      name: newName,
      description: original.description,
      labels: original.labels,
      category: original.category,
      language: original.language,
      baseVoiceId: original.baseVoiceId,
      profile: original.profile,
      sharingStatus: 'copied',
      originalVoiceId: original.id,
      publicOwnerId: original.publicOwnerId,
      liveModerationEnabled: original.liveModerationEnabled,
      freeUsersAllowed: original.freeUsersAllowed,
    });
    await tx
      .update(voices)
      .set({ clonedByCount: sql`${voices.clonedByCount} + 1` })
      .where(eq(voices.id, original.id));
  });
  await deps.events.publish(voiceAdded, {
    userId: caller.userId,
    workspaceId: caller.workspaceId,
    voiceId: id,
    source: 'library',
  });
  return { voice_id: id };
}

/** How many shared voices similar-voices compares at most (the newest). */
const SIMILAR_POOL = 5000;

/**
 * `POST /v1/similar-voices`: the shared voices nearest to a recording's profile by profileDistance (0 is
 * the same voice; one unit is half an octave of pitch or 6 dB of spectral envelope), nearest first.
 */
export async function similarVoices(
  db: Db,
  caller: VoiceCaller,
  profile: NonNullable<VoiceRow['profile']>,
  options: { threshold: number | undefined; topK: number },
  publicUrl: string,
): Promise<{ voices: LibraryVoice[]; has_more: boolean; total_count: number; last_sort_id: string | null }> {
  const rows = await db
    .select()
    .from(voices)
    .where(
      and(
        eq(voices.sharingStatus, 'enabled'),
        isNotNull(voices.profile),
        ne(voices.workspaceId, caller.workspaceId),
      ),
    )
    .orderBy(desc(voices.sharedAt))
    .limit(SIMILAR_POOL);
  const ranked = rows
    .map((row) => ({
      row,
      distance: profileDistance(profile, row.profile as NonNullable<VoiceRow['profile']>),
    }))
    .filter((r) => options.threshold === undefined || r.distance <= options.threshold)
    .sort((a, b) => a.distance - b.distance);
  const page = ranked.slice(0, options.topK);
  const added = await addedByWorkspace(
    db,
    caller.workspaceId,
    page.map((r) => r.row.id),
  );
  return {
    voices: page.map((r) => toLibraryVoice(r.row, publicUrl, added.has(r.row.id))),
    has_more: ranked.length > page.length,
    total_count: ranked.length,
    last_sort_id: page.at(-1)?.row.id ?? null,
  };
}

type CollectionRow = typeof voiceCollections.$inferSelect;

/**
 * A collection as the caller sees it: its voice ids only those the caller may use (premade, or an own
 * voice the caller holds a role on). Collections are workspace-wide, but a member's unshared voice is
 * not to be seen by the others, not even as an id (issue 8 sharing).
 */
const toCollection = (row: CollectionRow, visible: ReadonlySet<string>): VoiceCollection => ({
  collection_id: row.id,
  title: row.name,
  name: row.name,
  icon: row.icon,
  // Collections belong to the workspace: every member may change them.
  permission_on_resource: 'admin',
  voice_ids: row.voiceIds.filter((id) => visible.has(id)),
  created_at_unix: toUnixSeconds(row.createdAt),
});

/**
 * Of these ids, the premade voices and the own voices the predicate admits (one query): the caller's
 * usable ones with `holdsRole`, or all of the workspace's that still exist.
 */
async function voiceIdsAmong(db: Db, ids: readonly string[], admits: SQL): Promise<Set<string>> {
  const found = new Set(ids.filter((id) => findPremadeVoice(id)));
  const own = [...new Set(ids.filter((id) => !found.has(id) && id.length <= 100))];
  if (own.length > 0) {
    const rows = await db
      .select({ id: voices.id })
      .from(voices)
      .where(and(inArray(voices.id, own), admits));
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Of these ids, the ones the caller may use: premade voices and own voices the caller holds a role on. */
const usableVoiceIds = (db: Db, caller: VoiceCaller, ids: readonly string[]) =>
  voiceIdsAmong(db, ids, holdsRole('voice', voiceColumns, caller));

/** Of these ids, the ones still naming a voice: premade, or an own voice of the workspace (anyone's). */
const existingVoiceIds = (db: Db, workspaceId: string, ids: readonly string[]) =>
  voiceIdsAmong(db, ids, eq(voices.workspaceId, workspaceId));

interface CollectionInput {
  title?: string | undefined;
  name?: string | undefined;
  icon?: string | undefined;
  voice_ids?: string[] | undefined;
}

async function findCollectionRow(
  db: Db,
  workspaceId: string,
  id: string,
  lock = false,
): Promise<CollectionRow> {
  const query = db
    .select()
    .from(voiceCollections)
    .where(and(eq(voiceCollections.id, id), eq(voiceCollections.workspaceId, workspaceId)));
  const [row] = lock ? await query.for('update') : await query;
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
  const rows = await db
    .select()
    .from(voiceCollections)
    .where(eq(voiceCollections.workspaceId, caller.workspaceId))
    .orderBy(voiceCollections.name, voiceCollections.id);
  const visible = await usableVoiceIds(
    db,
    caller,
    rows.flatMap((row) => row.voiceIds),
  );
  return rows.map((row) => toCollection(row, visible));
}

export async function getCollection(db: Db, caller: VoiceCaller, id: string): Promise<VoiceCollection> {
  return shownToCaller(db, caller, await findCollectionRow(db, caller.workspaceId, id));
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
  const [row] = await db
    .insert(voiceCollections)
    .values({
      id: newId(),
      workspaceId,
      name: body.title ?? body.name ?? '',
      icon: body.icon ?? '',
      voiceIds: [...new Set(body.voice_ids ?? [])],
    })
    .returning();
  return shownToCaller(db, caller, row as CollectionRow);
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
    const current = await findCollectionRow(tx, workspaceId, id, true);
    await assertUsableVoices(tx, caller, body.voice_ids);
    let voiceIds = current.voiceIds;
    if (body.voice_ids) {
      const visible = await usableVoiceIds(tx, caller, current.voiceIds);
      const existing = await existingVoiceIds(tx, workspaceId, current.voiceIds);
      const hidden = new Set(current.voiceIds.filter((v) => !visible.has(v) && existing.has(v)));
      voiceIds = mergeCollectionVoices(current.voiceIds, hidden, body.voice_ids);
      assertCollectionRoom(voiceIds);
    }
    const [updated] = await tx
      .update(voiceCollections)
      .set({ name: body.title ?? body.name ?? current.name, icon: body.icon ?? current.icon, voiceIds })
      .where(and(eq(voiceCollections.id, id), eq(voiceCollections.workspaceId, workspaceId)))
      .returning();
    return updated as CollectionRow;
  });
  return shownToCaller(db, caller, row);
}

export async function deleteCollection(db: Db, workspaceId: string, id: string): Promise<void> {
  await findCollectionRow(db, workspaceId, id);
  await db
    .delete(voiceCollections)
    .where(and(eq(voiceCollections.id, id), eq(voiceCollections.workspaceId, workspaceId)));
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
    const current = await findCollectionRow(tx, workspaceId, collectionId, true);
    await assertUsableVoices(tx, caller, [voiceId]);
    const voiceIds = present
      ? [...new Set([...current.voiceIds, voiceId])]
      : current.voiceIds.filter((id) => id !== voiceId);
    assertCollectionRoom(voiceIds);
    await tx
      .update(voiceCollections)
      .set({ voiceIds })
      .where(and(eq(voiceCollections.id, collectionId), eq(voiceCollections.workspaceId, workspaceId)));
  });
  return { collection_id: collectionId, voice_id: voiceId };
}
