import type { PronunciationDictionaryLocator, PronunciationRule } from '@parla/contracts';
import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import {
  type PronunciationDictionaryRow,
  type PronunciationDictionaryVersionRow,
  pronunciationDictionaries,
  pronunciationDictionaryVersions,
  workspacePronunciationDefaults,
} from './pronunciation-dictionaries.tables';

const inWorkspace = (workspaceId: string, id: string) =>
  and(eq(pronunciationDictionaries.workspaceId, workspaceId), eq(pronunciationDictionaries.id, id));

/** How many dictionaries a workspace keeps (archived ones too). */
export async function countDictionaries(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(pronunciationDictionaries)
    .where(eq(pronunciationDictionaries.workspaceId, workspaceId));
  return Number(row?.n ?? 0);
}

/** A new dictionary with its first version, together. */
export async function insertDictionary(
  db: Db,
  dictionary: typeof pronunciationDictionaries.$inferInsert,
  version: typeof pronunciationDictionaryVersions.$inferInsert,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(pronunciationDictionaries).values(dictionary);
    await tx.insert(pronunciationDictionaryVersions).values(version);
  });
}

export async function findDictionary(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<PronunciationDictionaryRow | undefined> {
  const [row] = await db.select().from(pronunciationDictionaries).where(inWorkspace(workspaceId, id));
  return row;
}

export async function findVersion(
  db: Db,
  workspaceId: string,
  dictionaryId: string,
  versionId: string,
): Promise<PronunciationDictionaryVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(pronunciationDictionaryVersions)
    .where(
      and(
        eq(pronunciationDictionaryVersions.workspaceId, workspaceId),
        eq(pronunciationDictionaryVersions.dictionaryId, dictionaryId),
        eq(pronunciationDictionaryVersions.id, versionId),
      ),
    );
  return row;
}

/** A page of a workspace's dictionaries, one more than asked (so the caller knows whether more follow). */
export async function listDictionaries(
  db: Db,
  workspaceId: string,
  options: {
    sort: 'creation_time_unix' | 'name';
    ascending: boolean;
    includeArchived: boolean;
    offset: number;
    limit: number;
  },
): Promise<PronunciationDictionaryRow[]> {
  const order = options.ascending ? asc : desc;
  const conditions: SQL[] = [eq(pronunciationDictionaries.workspaceId, workspaceId)];
  if (!options.includeArchived) conditions.push(isNull(pronunciationDictionaries.archivedAt));
  const key =
    options.sort === 'name'
      ? [order(sql`lower(${pronunciationDictionaries.name})`), order(pronunciationDictionaries.createdAt)]
      : [order(pronunciationDictionaries.createdAt)];
  return db
    .select()
    .from(pronunciationDictionaries)
    .where(and(...conditions))
    .orderBy(...key, order(pronunciationDictionaries.id))
    .offset(options.offset)
    .limit(options.limit + 1);
}

/** Renames or archives a dictionary; undefined when it is not the workspace's. */
export async function updateDictionary(
  db: Db,
  workspaceId: string,
  id: string,
  set: Partial<Pick<PronunciationDictionaryRow, 'name' | 'archivedAt'>>,
): Promise<PronunciationDictionaryRow | undefined> {
  if (Object.keys(set).length === 0) return findDictionary(db, workspaceId, id);
  const [row] = await db
    .update(pronunciationDictionaries)
    .set(set)
    .where(inWorkspace(workspaceId, id))
    .returning();
  return row;
}

/**
 * A change of a dictionary's rules as one new version: the dictionary's row is locked, its latest rules
 * read, `change` makes the new list (it may throw to refuse it: nothing is written), the version is written
 * and the dictionary points at it. Undefined when the dictionary is not the workspace's.
 */
export async function changeRules(
  db: Db,
  workspaceId: string,
  id: string,
  version: { id: string; createdBy: string },
  change: (rules: PronunciationRule[]) => PronunciationRule[],
): Promise<PronunciationDictionaryVersionRow | undefined> {
  return db.transaction(async (tx) => {
    const [dictionary] = await tx
      .select()
      .from(pronunciationDictionaries)
      .where(inWorkspace(workspaceId, id))
      .for('update');
    if (!dictionary) return undefined;
    const [latest] = await tx
      .select()
      .from(pronunciationDictionaryVersions)
      .where(eq(pronunciationDictionaryVersions.id, dictionary.latestVersionId));
    const rules = change(latest?.rules ?? []);
    const [written] = await tx
      .insert(pronunciationDictionaryVersions)
      .values({
        id: version.id,
        dictionaryId: id,
        workspaceId,
        number: (latest?.number ?? 0) + 1,
        rules,
        rulesNum: rules.length,
        createdBy: version.createdBy,
      })
      .returning();
    await tx
      .update(pronunciationDictionaries)
      .set({ latestVersionId: version.id, latestRulesNum: rules.length })
      .where(eq(pronunciationDictionaries.id, id));
    return written;
  });
}

/** The dictionaries of these ids that are the workspace's. */
export async function findDictionaries(
  db: Db,
  workspaceId: string,
  ids: string[],
): Promise<PronunciationDictionaryRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(pronunciationDictionaries)
    .where(
      and(eq(pronunciationDictionaries.workspaceId, workspaceId), inArray(pronunciationDictionaries.id, ids)),
    );
}

/** The versions of these ids that are the workspace's. */
export async function findVersions(
  db: Db,
  workspaceId: string,
  ids: string[],
): Promise<PronunciationDictionaryVersionRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(pronunciationDictionaryVersions)
    .where(
      and(
        eq(pronunciationDictionaryVersions.workspaceId, workspaceId),
        inArray(pronunciationDictionaryVersions.id, ids),
      ),
    );
}

/** The workspace's default locators (none set: an empty list). */
export async function readDefaultLocators(
  db: Db,
  workspaceId: string,
): Promise<PronunciationDictionaryLocator[]> {
  const [row] = await db
    .select({ locators: workspacePronunciationDefaults.locators })
    .from(workspacePronunciationDefaults)
    .where(eq(workspacePronunciationDefaults.workspaceId, workspaceId));
  return row?.locators ?? [];
}

export async function writeDefaultLocators(
  db: Db,
  workspaceId: string,
  locators: PronunciationDictionaryLocator[],
): Promise<void> {
  await db
    .insert(workspacePronunciationDefaults)
    .values({ workspaceId, locators })
    .onConflictDoUpdate({
      target: workspacePronunciationDefaults.workspaceId,
      set: { locators, updatedAt: new Date() },
    });
}
