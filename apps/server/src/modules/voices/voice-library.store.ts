import type { SharedVoicesQuery } from '@parla/contracts';
import { and, desc, eq, ilike, inArray, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/db/client';
import { type VoiceRow, voices } from './voices.tables';

const listOf = (value: string | string[] | undefined) =>
  value === undefined
    ? []
    : (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).filter(Boolean);

/** A label filter: labels are compared trimmed and in lower case (as `GET /v1/voices/accents` lists them). */
const labelIs = (key: string, value: string) =>
  sql`lower(trim(${voices.labels}->>${key})) = ${value.trim().toLowerCase()}`;

/** The library's language filter as the shared-voices query reads it (ISO 639-1 of a tag like `pt-BR`). */
export const libraryLanguage = (language: string): string => language.toLowerCase().slice(0, 2);

/**
 * One page of the shared voices matching the library's filters (one row more than the page, to tell
 * whether more follow), and how many match in all.
 */
export async function sharedVoicePage(
  db: Db,
  query: z.infer<typeof SharedVoicesQuery>,
): Promise<{ rows: VoiceRow[]; total: number }> {
  const where: SQL[] = [eq(voices.sharingStatus, 'enabled')];
  if (query.category) where.push(eq(voices.category, query.category as VoiceRow['category']));
  if (query.gender) where.push(labelIs('gender', query.gender));
  if (query.age) where.push(labelIs('age', query.age));
  if (query.accent) where.push(labelIs('accent', query.accent));
  if (query.language) where.push(eq(voices.language, libraryLanguage(query.language)));
  if (query.owner_id) where.push(eq(voices.publicOwnerId, query.owner_id));
  if (query.featured === 'true') where.push(eq(voices.builtIn, true));
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
  return { rows, total: total?.n ?? 0 };
}

/**
 * The distinct accents of the voices shared in the library, with the language each is spoken in (an
 * accent label trimmed and lower-cased, as the `accent` filter compares it), of one language when given.
 */
export async function sharedVoiceAccents(
  db: Db,
  language: string | undefined,
): Promise<{ accent: string; language: string }[]> {
  const accent = sql<string>`lower(trim(${voices.labels}->>'accent'))`;
  const where: SQL[] = [eq(voices.sharingStatus, 'enabled'), sql`coalesce(${accent}, '') <> ''`];
  if (language !== undefined) where.push(eq(voices.language, libraryLanguage(language)));
  return db
    .selectDistinct({ accent, language: voices.language })
    .from(voices)
    .where(and(...where))
    .orderBy(voices.language, accent);
}

/** The languages of the voices shared in the library, with how many voices speak each. */
export async function sharedVoiceLanguages(db: Db): Promise<{ language: string; voices: number }[]> {
  return db
    .select({ language: voices.language, voices: sql<number>`count(*)::int` })
    .from(voices)
    .where(eq(voices.sharingStatus, 'enabled'))
    .groupBy(voices.language);
}

/** The newest shared voices with a profile, built-in and other workspaces' only, at most `limit`. */
export async function sharedVoicesWithProfile(
  db: Db,
  workspaceId: string,
  limit: number,
): Promise<VoiceRow[]> {
  return db
    .select()
    .from(voices)
    .where(
      and(
        eq(voices.sharingStatus, 'enabled'),
        isNotNull(voices.profile),
        // Built-in voices have no workspace: `<>` alone would leave them out.
        or(isNull(voices.workspaceId), ne(voices.workspaceId, workspaceId)),
      ),
    )
    .orderBy(desc(voices.sharedAt))
    .limit(limit);
}

/** Which of these shared voices the workspace has added already. */
export async function addedByWorkspace(db: Db, workspaceId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ original: voices.originalVoiceId })
    .from(voices)
    .where(and(eq(voices.workspaceId, workspaceId), inArray(voices.originalVoiceId, ids)));
  return new Set(rows.flatMap((r) => (r.original ? [r.original] : [])));
}

/** A voice shared in the library by this public owner, or undefined. */
export async function findSharedVoice(
  db: Db,
  voiceId: string,
  publicOwnerId: string,
): Promise<VoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(voices)
    .where(
      and(
        eq(voices.id, voiceId),
        eq(voices.sharingStatus, 'enabled'),
        eq(voices.publicOwnerId, publicOwnerId),
      ),
    );
  return row;
}

/** Whether the workspace has a copy of this shared voice already. */
export async function hasCopyOf(db: Db, workspaceId: string, originalVoiceId: string): Promise<boolean> {
  const [already] = await db
    .select({ id: voices.id })
    .from(voices)
    .where(and(eq(voices.workspaceId, workspaceId), eq(voices.originalVoiceId, originalVoiceId)));
  return already !== undefined;
}

/** One more copy of a shared voice counted (its `cloned_by_count`). */
export async function countCopy(db: Db, originalVoiceId: string): Promise<void> {
  await db
    .update(voices)
    .set({ clonedByCount: sql`${voices.clonedByCount} + 1` })
    .where(eq(voices.id, originalVoiceId));
}
