import { createHash } from 'node:crypto';
import { scaledProfile, type VoiceProfile } from '@parla/audio';
import type { Db } from '../../platform/db/client';
import type { Storage } from '../../platform/storage/storage';
import { BUILT_IN_OWNER_ID, BUILT_IN_VOICES, type BuiltInVoiceDefinition } from './built-in-voices.catalog';
import { BASE_VOICE_PROFILES } from './built-in-voices.profiles';
import {
  insertBuiltInVoices,
  listBuiltInVoiceStates,
  retireBuiltInVoices,
  updateBuiltInVoice,
} from './built-in-voices.store';
import { findBaseVoice } from './speaking-voice';
import { ownPreviewKey } from './voice-previews';
import type { NewVoiceRow } from './voices.store';

/*
 * Seeding the built-in voices (issue 18 item 6) into the library, idempotently: a voice missing is
 * inserted, a voice whose definition changed is rewritten (its cached preview dropped), a voice whose
 * definition is gone leaves the library, and a run with nothing changed writes nothing. No engine runs
 * here: the base voices' profiles were measured once and kept in built-in-voices.profiles.ts (checked
 * against the engines by built-in-voices.int.test.ts), so start-up stays a few queries long.
 */

/** What a built-in voice's row holds, from its definition (the columns the seed owns). */
export function builtInVoiceRow(definition: BuiltInVoiceDefinition): NewVoiceRow {
  const base = findBaseVoice(definition.design.base);
  const measured = BASE_VOICE_PROFILES[definition.design.base];
  if (!base || !measured)
    throw new Error(
      `The built-in voice ${definition.name} names an unknown base voice ${definition.design.base}.`,
    );
  if (base.language !== definition.language)
    throw new Error(
      `The built-in voice ${definition.name} speaks ${definition.language}, its base ${base.language}.`,
    );
  const { pitch, formant, pace } = definition.design;
  const profile: VoiceProfile = scaledProfile(measured, pitch, formant, pace);
  return {
    id: definition.voice_id,
    workspaceId: null,
    ownerUserId: null,
    name: definition.name,
    description: definition.description,
    labels: { ...definition.labels, language: definition.language },
    category: 'generated',
    language: definition.language,
    baseVoiceId: base.voice_id,
    profile,
    settings: { speed: pace },
    sharingStatus: 'enabled',
    publicOwnerId: BUILT_IN_OWNER_ID,
    freeUsersAllowed: true,
    liveModerationEnabled: false,
    builtIn: true,
    builtInHash: definitionHash(definition, measured),
    previewText: definition.preview_text,
  };
}

/** The hash a built-in voice's row keeps: its definition and its base's measured profile. */
function definitionHash(definition: BuiltInVoiceDefinition, measured: VoiceProfile): string {
  return createHash('sha256').update(JSON.stringify({ definition, measured })).digest('hex').slice(0, 32);
}

export interface SeedResult {
  added: string[];
  updated: string[];
  retired: string[];
  ms: number;
}

/**
 * Brings the built-in voices in line with BUILT_IN_VOICES (at start and with `--migrate-only`). Safe to
 * run from several processes at once: inserts skip a voice another process added, updates write the
 * same values. With `storage`, an updated voice's cached preview is dropped (it is made again on request).
 */
export async function seedBuiltInVoices(
  deps: { db: Db; storage?: Storage },
  definitions: readonly BuiltInVoiceDefinition[] = BUILT_IN_VOICES,
): Promise<SeedResult> {
  const started = performance.now();
  const rows = definitions.map(builtInVoiceRow);
  const existing = new Map((await listBuiltInVoiceStates(deps.db)).map((state) => [state.id, state]));
  const added = rows.filter((row) => !existing.has(row.id));
  const changed = rows.filter((row) => {
    const state = existing.get(row.id);
    return state !== undefined && (state.hash !== row.builtInHash || state.sharingStatus !== 'enabled');
  });
  const kept = new Set(rows.map((row) => row.id));
  const retired = [...existing.values()]
    .filter((state) => !kept.has(state.id) && state.sharingStatus !== 'disabled')
    .map((state) => state.id);
  if (added.length + changed.length + retired.length > 0) {
    const now = Date.now();
    const position = new Map(rows.map((row, index) => [row.id, index]));
    await deps.db.transaction(async (tx) => {
      // A second apart in the catalogue's order, so "newest" lists them as the catalogue does.
      await insertBuiltInVoices(
        tx,
        added.map((row) => ({ ...row, sharedAt: new Date(now - (position.get(row.id) ?? 0) * 1000) })),
      );
      // The columns the definition decides; the date it was first shared and its copy count stay.
      for (const { id, ...changes } of changed) await updateBuiltInVoice(tx, id, changes);
      await retireBuiltInVoices(tx, retired);
    });
  }
  if (deps.storage) {
    const storage = deps.storage;
    await Promise.all(changed.map((row) => storage.delete(ownPreviewKey(row.id)).catch(() => undefined)));
  }
  return {
    added: added.map((row) => row.id),
    updated: changed.map((row) => row.id),
    retired,
    ms: Math.round(performance.now() - started),
  };
}
