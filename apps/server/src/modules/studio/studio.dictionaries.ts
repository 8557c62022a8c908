import type { PronunciationRule } from '@parla/contracts';
import {
  type ResolvedDictionaryVersion,
  resolvePronunciationDictionaries,
} from '../pronunciation-dictionaries';
import type { StudioDeps } from './studio.deps';
import type { StoredLocator, StudioProjectRow } from './studio.tables';

/*
 * A Studio project's pronunciation dictionaries (issue 30 items 1–2), through the dictionaries' front door:
 * the same resolution and 404s as text to speech's `pronunciation_dictionary_locators`.
 */

/**
 * A project's dictionaries resolved (their versions, names and rules). The project's list as stored: an
 * empty list is none (the workspace's default list applies to requests that name none; a project always
 * names its own, chosen when it is made or set later).
 */
export function projectDictionaries(
  deps: StudioDeps,
  workspaceId: string,
  locators: readonly StoredLocator[],
  field: (string | number)[] = ['pronunciation_dictionary_locators'],
): Promise<ResolvedDictionaryVersion[]> {
  return resolvePronunciationDictionaries(
    deps.dictionaries,
    workspaceId,
    locators.map((l) => ({
      pronunciation_dictionary_id: l.pronunciation_dictionary_id,
      ...(l.version_id ? { version_id: l.version_id } : {}),
    })),
    field,
  );
}

/** The rules of a project's dictionaries, in their order (what its blocks are spoken and hashed with). */
export async function projectRules(
  deps: StudioDeps,
  project: StudioProjectRow,
): Promise<PronunciationRule[]> {
  const versions = await projectDictionaries(
    deps,
    project.workspaceId,
    project.pronunciationDictionaryLocators,
  );
  return versions.flatMap((version) => version.rules);
}
