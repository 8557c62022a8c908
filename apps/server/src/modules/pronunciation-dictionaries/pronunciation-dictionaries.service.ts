import {
  type AddDictionaryFromRulesRequest,
  type ListDictionariesQuery,
  MAX_DICTIONARY_RULES,
  MAX_WORKSPACE_DICTIONARIES,
  type PronunciationDictionaryLocator,
  type PronunciationRule,
  type UpdateDictionaryRequest,
} from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError, invalid } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { UploadedFile } from '../../platform/multipart';
import { holdsAdminRights, lockWorkspace } from '../workspaces';
import { LexiconError, parseLexicon } from './pls';
import {
  changeRules,
  countDictionaries,
  findDictionaries,
  findDictionary,
  findVersion,
  findVersions,
  insertDictionary,
  listDictionaries as listRows,
  readDefaultLocators,
  updateDictionary as updateRow,
  writeDefaultLocators,
} from './pronunciation-dictionaries.store';
import type {
  PronunciationDictionaryRow,
  PronunciationDictionaryVersionRow,
} from './pronunciation-dictionaries.tables';

/*
 * Pronunciation dictionaries (issue 30): a workspace's lists of alias and phoneme rules, each change a new
 * immutable version. The workspace's members share them (every member reads and edits, like the knowledge
 * base); another workspace's id is answered exactly like an unknown one.
 */

export interface DictionaryDeps {
  db: Db;
}

/** Who asks: the member and their workspace. */
export interface DictionaryCaller {
  userId: string;
  workspaceId: string;
}

/** The one 404 of an unknown dictionary or version, whoever's it is. */
export function dictionaryNotFound(id: string, versionId?: string | null): AppError {
  const what = versionId
    ? `The version ${JSON.stringify(versionId.slice(0, 64))} of the pronunciation dictionary ${JSON.stringify(id.slice(0, 64))}`
    : `The pronunciation dictionary ${JSON.stringify(id.slice(0, 64))}`;
  return new AppError('pronunciation_dictionary_not_found', `${what} was not found.`);
}

const tooManyRules = (count: number) =>
  new AppError(
    'pronunciation_dictionary_limit_reached',
    `A dictionary holds at most ${MAX_DICTIONARY_RULES.toLocaleString('en')} rules; this change would make ${count.toLocaleString('en')}.`,
  );

/** One rule per string to replace: a later rule for the same string replaces the earlier one, in place. */
function merged(
  rules: readonly PronunciationRule[],
  added: readonly PronunciationRule[],
): PronunciationRule[] {
  const out = [...rules];
  for (const rule of added) {
    const at = out.findIndex((r) => r.string_to_replace === rule.string_to_replace);
    if (at === -1) out.push(rule);
    else out[at] = rule;
  }
  return out;
}

async function create(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  input: {
    name: string;
    description?: string | null;
    workspaceAccess?: string | null;
    rules: PronunciationRule[];
  },
): Promise<PronunciationDictionaryRow> {
  const rules = merged([], input.rules);
  if (rules.length > MAX_DICTIONARY_RULES) throw tooManyRules(rules.length);
  const id = newId();
  const versionId = newId();
  const row = {
    id,
    workspaceId: caller.workspaceId,
    createdBy: caller.userId,
    name: input.name,
    description: input.description ?? null,
    workspaceAccess: input.workspaceAccess ?? null,
    latestVersionId: versionId,
    latestRulesNum: rules.length,
    archivedAt: null,
    createdAt: new Date(),
  };
  // Counted and inserted under the workspace's lock: two creates at once cannot both take the last place.
  await deps.db.transaction(async (tx) => {
    await lockWorkspace(tx, caller.workspaceId);
    if ((await countDictionaries(tx, caller.workspaceId)) >= MAX_WORKSPACE_DICTIONARIES)
      throw new AppError(
        'pronunciation_dictionary_limit_reached',
        `A workspace keeps at most ${MAX_WORKSPACE_DICTIONARIES} pronunciation dictionaries.`,
      );
    await insertDictionary(tx, row, {
      id: versionId,
      dictionaryId: id,
      workspaceId: caller.workspaceId,
      number: 1,
      rules,
      rulesNum: rules.length,
      createdBy: caller.userId,
    });
  });
  return row;
}

/** `add-from-rules`: a dictionary and its first version. */
export function createFromRules(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  body: AddDictionaryFromRulesRequest,
): Promise<PronunciationDictionaryRow> {
  return create(deps, caller, {
    name: body.name,
    description: body.description,
    workspaceAccess: body.workspace_access,
    rules: body.rules,
  });
}

/** `add-from-file`: the rules of a PLS lexicon (pls.ts refuses anything it does not take, storing nothing). */
export function createFromFile(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  input: { file: UploadedFile | undefined; name: string; description?: string; workspaceAccess?: string },
): Promise<PronunciationDictionaryRow> {
  if (!input.file) throw invalid('file', 'Attach the PLS lexicon as the form field "file".');
  let rules: PronunciationRule[];
  try {
    rules = parseLexicon(input.file.bytes);
  } catch (error) {
    if (error instanceof LexiconError)
      throw new AppError('pronunciation_lexicon_invalid', error.message, { cause: error });
    throw error;
  }
  return create(deps, caller, {
    name: input.name,
    description: input.description,
    workspaceAccess: input.workspaceAccess,
    rules,
  });
}

/** A dictionary of the caller's workspace, or the 404. */
export async function requireDictionary(
  deps: DictionaryDeps,
  caller: Pick<DictionaryCaller, 'workspaceId'>,
  id: string,
): Promise<PronunciationDictionaryRow> {
  const row = await findDictionary(deps.db, caller.workspaceId, id);
  if (!row) throw dictionaryNotFound(id);
  return row;
}

/** A dictionary and its latest version's rules. */
export async function dictionaryWithRules(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  id: string,
): Promise<{ row: PronunciationDictionaryRow; rules: PronunciationRule[] }> {
  const row = await requireDictionary(deps, caller, id);
  const version = await findVersion(deps.db, caller.workspaceId, id, row.latestVersionId);
  return { row, rules: version?.rules ?? [] };
}

/** An opaque page cursor: the offset of the next page. */
const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw invalid('cursor', 'The cursor is not one this server gave.', 'query');
  return Number(match[1]);
}

/** A page of the workspace's dictionaries. */
export async function listDictionaries(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  query: ListDictionariesQuery,
): Promise<{ rows: PronunciationDictionaryRow[]; nextCursor: string | null; hasMore: boolean }> {
  const offset = decodeCursor(query.cursor);
  const rows = await listRows(deps.db, caller.workspaceId, {
    sort: query.sort,
    ascending: query.sort_direction.startsWith('asc'),
    includeArchived: query.include_archived,
    offset,
    limit: query.page_size,
  });
  const hasMore = rows.length > query.page_size;
  return {
    rows: rows.slice(0, query.page_size),
    nextCursor: hasMore ? encodeCursor(offset + query.page_size) : null,
    hasMore,
  };
}

/** Rename and/or archive (or bring back from the archive). */
export async function updateDictionary(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  id: string,
  body: UpdateDictionaryRequest,
): Promise<PronunciationDictionaryRow> {
  const current = await requireDictionary(deps, caller, id);
  const set: Partial<Pick<PronunciationDictionaryRow, 'name' | 'archivedAt'>> = {};
  if (body.name != null) set.name = body.name;
  if (body.archived != null && body.archived !== (current.archivedAt !== null))
    set.archivedAt = body.archived ? new Date() : null;
  const row = await updateRow(deps.db, caller.workspaceId, id, set);
  if (!row) throw dictionaryNotFound(id);
  return row;
}

async function changed(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  id: string,
  change: (rules: PronunciationRule[]) => PronunciationRule[],
): Promise<PronunciationDictionaryVersionRow> {
  const version = await changeRules(
    deps.db,
    caller.workspaceId,
    id,
    { id: newId(), createdBy: caller.userId },
    (rules) => {
      const next = change(rules);
      if (next.length > MAX_DICTIONARY_RULES) throw tooManyRules(next.length);
      return next;
    },
  );
  if (!version) throw dictionaryNotFound(id);
  return version;
}

/** `add-rules`: a rule for a string already there replaces it; a new version. */
export function addRules(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  id: string,
  rules: PronunciationRule[],
): Promise<PronunciationDictionaryVersionRow> {
  return changed(deps, caller, id, (current) => merged(current, rules));
}

/** `remove-rules`: every rule of these strings goes (strings with no rule are let be); a new version. */
export function removeRules(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  id: string,
  ruleStrings: string[],
): Promise<PronunciationDictionaryVersionRow> {
  const gone = new Set(ruleStrings);
  return changed(deps, caller, id, (current) => current.filter((r) => !gone.has(r.string_to_replace)));
}

/** `set-rules`: these rules and no others; a new version. */
export function setRules(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  id: string,
  rules: PronunciationRule[],
): Promise<PronunciationDictionaryVersionRow> {
  return changed(deps, caller, id, () => merged([], rules));
}

/** A version of a dictionary (its rules as of that change), or the 404. */
export async function requireVersion(
  deps: DictionaryDeps,
  caller: DictionaryCaller,
  id: string,
  versionId: string,
): Promise<PronunciationDictionaryVersionRow> {
  await requireDictionary(deps, caller, id);
  const version = await findVersion(deps.db, caller.workspaceId, id, versionId);
  if (!version) throw dictionaryNotFound(id, versionId);
  return version;
}

/**
 * The rules of up to three dictionaries, in the order named (issue 30): a locator without `version_id`
 * means the dictionary's latest version. `locators` null or undefined means the request named none: the
 * workspace's default list applies (accounts §3 Workspace `pronunciation_dictionary_locators`); an empty
 * list means none at all. An unknown or another workspace's dictionary or version is the 404
 * `pronunciation_dictionary_not_found` at its place in the body, before anything is charged. A default
 * that no longer resolves is let be (the workspace's setting must not break every request).
 */
export async function pronunciationRulesFor(
  deps: DictionaryDeps,
  workspaceId: string,
  locators: readonly PronunciationDictionaryLocator[] | null | undefined,
  field: (string | number)[] = ['pronunciation_dictionary_locators'],
): Promise<PronunciationRule[]> {
  return (await resolvePronunciationDictionaries(deps, workspaceId, locators, field)).flatMap((r) => r.rules);
}

/** One locator resolved: the dictionary's name and the version it names (its latest when none). */
export interface ResolvedDictionaryVersion {
  dictionaryId: string;
  dictionaryName: string;
  versionId: string;
  versionNumber: number;
  rulesNum: number;
  rules: PronunciationRule[];
  createdBy: string | null;
  createdAt: Date;
}

/**
 * pronunciationRulesFor's resolution with what each locator resolved to (Studio keeps the version ids in
 * its blocks' hashes and answers them in `pronunciation_dictionary_versions`); the same checks and 404s.
 */
export async function resolvePronunciationDictionaries(
  deps: DictionaryDeps,
  workspaceId: string,
  locators: readonly PronunciationDictionaryLocator[] | null | undefined,
  field: (string | number)[] = ['pronunciation_dictionary_locators'],
): Promise<ResolvedDictionaryVersion[]> {
  const named = locators != null;
  const wanted = named ? locators : await readDefaultLocators(deps.db, workspaceId);
  if (wanted.length === 0) return [];
  const dictionaries = new Map(
    (
      await findDictionaries(
        deps.db,
        workspaceId,
        wanted.map((l) => l.pronunciation_dictionary_id),
      )
    ).map((d) => [d.id, d]),
  );
  const versionIds = wanted.map(
    (l) => l.version_id ?? dictionaries.get(l.pronunciation_dictionary_id)?.latestVersionId ?? '',
  );
  const versions = new Map(
    (await findVersions(deps.db, workspaceId, versionIds.filter(Boolean))).map((v) => [v.id, v]),
  );
  const resolved: ResolvedDictionaryVersion[] = [];
  for (const [index, locator] of wanted.entries()) {
    const version = versions.get(versionIds[index] ?? '');
    const dictionary = dictionaries.get(locator.pronunciation_dictionary_id);
    if (!version || !dictionary || version.dictionaryId !== locator.pronunciation_dictionary_id) {
      if (!named) continue;
      const error = dictionaryNotFound(locator.pronunciation_dictionary_id, locator.version_id);
      throw new AppError(error.code, error.message, {
        errors: [{ loc: ['body', ...field, index], msg: error.message, type: 'value_error' }],
      });
    }
    resolved.push({
      dictionaryId: dictionary.id,
      dictionaryName: dictionary.name,
      versionId: version.id,
      versionNumber: version.number,
      rulesNum: version.rulesNum,
      rules: version.rules,
      createdBy: version.createdBy,
      createdAt: version.createdAt,
    });
  }
  return resolved;
}

/** The workspace's default dictionaries. */
export function defaultLocators(
  deps: DictionaryDeps,
  caller: Pick<DictionaryCaller, 'workspaceId'>,
): Promise<PronunciationDictionaryLocator[]> {
  return readDefaultLocators(deps.db, caller.workspaceId);
}

/**
 * Sets the workspace's default dictionaries: each must be the workspace's (and its version, if named). A
 * workspace setting (accounts §3 `pronunciation_dictionary_locators`): it changes every member's speech,
 * so only those with the workspace's admin rights (admins and editors, accounts §6) set it, as with its
 * webhooks.
 */
export async function setDefaultLocators(
  deps: DictionaryDeps,
  caller: Pick<DictionaryCaller, 'workspaceId' | 'userId'>,
  locators: PronunciationDictionaryLocator[],
): Promise<PronunciationDictionaryLocator[]> {
  if (!(await holdsAdminRights(deps.db, caller.workspaceId, caller.userId)))
    throw new AppError(
      'forbidden',
      'Only workspace admins can set the default pronunciation dictionaries; ask one of them.',
    );
  const kept = locators.map((l) => ({
    pronunciation_dictionary_id: l.pronunciation_dictionary_id,
    ...(l.version_id ? { version_id: l.version_id } : {}),
  }));
  await pronunciationRulesFor(deps, caller.workspaceId, kept);
  await writeDefaultLocators(deps.db, caller.workspaceId, kept);
  return kept;
}
