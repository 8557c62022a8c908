import { profileDistance } from '@parla/audio';
import {
  findSpokenLanguage,
  type LibraryLanguage,
  type LibraryVoice,
  modelSpeaks,
  type SharedVoicesQuery,
  type ShareVoiceBody,
  type VoiceAccent,
  type voiceAccentsRoute,
} from '@parla/contracts';
import type { z } from 'zod';
import type { Db } from '../../platform/db/client';
import { AppError, invalid } from '../../platform/errors';
import { voiceAdded } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { getUser } from '../users';
import { getOwnVoice, takeVoiceSlot, type VoiceCaller } from './own-voices.service';
import { reuseProblem, voiceNotFound } from './speaking-voice';
import { toLibraryVoice } from './voice-library.present';
import {
  addedByWorkspace,
  countCopy,
  findSharedVoice,
  hasCopyOf,
  sharedVoiceAccents,
  sharedVoiceLanguages,
  sharedVoicePage,
  sharedVoicesWithProfile,
} from './voice-library.store';
import { listModels, type ModelAvailability } from './voices.service';
import { insertVoice, setCopiesStatus, updateVoice, workspaceTier } from './voices.store';
import type { VoiceRow } from './voices.tables';

/*
 * The voice library (issue 7 item 5): own voices shared by their owners, listed for every workspace,
 * added to a workspace as a copy (`original_voice_id`), and found by sound (similar voices). Collections
 * are in voice-collections.service.ts.
 */

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
  const sharer = await getUser(db, caller.userId);
  await db.transaction(async (tx) => {
    await updateVoice(tx, row.id, {
      sharingStatus: body.enabled ? 'enabled' : 'disabled',
      sharedAt: body.enabled ? (row.sharedAt ?? new Date()) : row.sharedAt,
      publicOwnerId: sharer?.publicUserId ?? row.publicOwnerId,
      name: body.name ?? row.name,
      description: body.description ?? row.description,
      liveModerationEnabled: body.live_moderation_enabled ?? row.liveModerationEnabled,
      freeUsersAllowed: body.free_users_allowed ?? row.freeUsersAllowed,
    });
    await setCopiesStatus(tx, row.id, body.enabled ? 'copied' : 'copied_disabled');
  });
  return (await getOwnVoice(db, caller, voiceId)).row;
}

/** `GET /v1/shared-voices`: the shared voices matching the filters, a page at a time. */
export async function listSharedVoices(
  db: Db,
  caller: VoiceCaller,
  query: z.infer<typeof SharedVoicesQuery>,
  publicUrl: string,
): Promise<{ voices: LibraryVoice[]; has_more: boolean; total_count: number; last_sort_id: string | null }> {
  const { rows, total } = await sharedVoicePage(db, query);
  const page = rows.slice(0, query.page_size);
  const added = await addedByWorkspace(
    db,
    caller.workspaceId,
    page.map((r) => r.id),
  );
  return {
    voices: page.map((row) => toLibraryVoice(row, publicUrl, added.has(row.id))),
    has_more: rows.length > query.page_size,
    total_count: total,
    last_sort_id: page.at(-1)?.id ?? null,
  };
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
  const original = await findSharedVoice(db, voiceId, publicUserId);
  if (!original) throw voiceNotFound(voiceId);
  const problem = await reuseProblem(db, original);
  if (problem) throw new AppError('voice_unusable', problem);
  if (original.workspaceId === caller.workspaceId)
    throw new AppError('conflict', 'This voice is already one of your voices.');
  const id = newId();
  await db.transaction(async (tx) => {
    if (!original.freeUsersAllowed && (await workspaceTier(tx, caller.workspaceId)) === 'free')
      throw new AppError('forbidden', 'The owner of this voice has made it available on paid plans only.');
    await takeVoiceSlot(tx, caller.workspaceId, 'add');
    if (await hasCopyOf(tx, caller.workspaceId, original.id))
      throw new AppError('conflict', 'This voice is already in your voices.');
    await insertVoice(tx, {
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
      // A copy speaks as the original does, on Kokoro too.
      kokoroVoice: original.kokoroVoice,
      // A designed voice's pace is a setting; its preview sentence speaks the copy's own name.
      settings: original.settings,
      previewText: original.previewText,
      sharingStatus: 'copied',
      originalVoiceId: original.id,
      publicOwnerId: original.publicOwnerId,
      liveModerationEnabled: original.liveModerationEnabled,
      freeUsersAllowed: original.freeUsersAllowed,
    });
    await countCopy(tx, original.id);
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
  const rows = await sharedVoicesWithProfile(db, caller.workspaceId, SIMILAR_POOL);
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

/** An accent label as a person reads it: `new york` → `New York`, `standard` → `Standard`. */
export function accentName(accent: string): string {
  return accent
    .split(/[\s_]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * `GET /v1/voices/accents`: the accents the library's voices have (the public API's "available accents in
 * the shared voice library"), of one language, or of the languages a model speaks (`model_id`, refused
 * with a 422 when the model does not exist here). An accent no shared voice has is never listed.
 */
export async function listLibraryAccents(
  db: Db,
  query: z.infer<NonNullable<typeof voiceAccentsRoute.query>>,
  availability: ModelAvailability,
): Promise<{ accents: VoiceAccent[] }> {
  const model =
    query.model_id === undefined
      ? undefined
      : listModels(availability).find((m) => m.model_id === query.model_id);
  if (query.model_id !== undefined && !model)
    throw invalid('model_id', `A model with model ID ${query.model_id} does not exist.`, 'query');
  const rows = await sharedVoiceAccents(db, query.language);
  return {
    accents: rows
      .filter((row) => !model || modelSpeaks(model, row.language))
      .map(({ accent, language }) => ({
        accent,
        language,
        code: `${language}-${accent.replace(/[\s_]+/g, '-')}`,
        name: accentName(accent),
      })),
  };
}

/**
 * `GET /v1/shared-voices/languages`: the languages the library's voices speak, by name, each with its
 * number of voices; a language no shared voice speaks is not listed (issue 26 item 7: the filter offered
 * every language Parla speaks, most of them finding nothing).
 */
export async function listLibraryLanguages(db: Db): Promise<{ languages: LibraryLanguage[] }> {
  const rows = await sharedVoiceLanguages(db);
  return {
    languages: rows
      .map((row) => ({
        language: row.language,
        name: findSpokenLanguage(row.language)?.name ?? row.language,
        voice_count: row.voices,
      }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en')),
  };
}
