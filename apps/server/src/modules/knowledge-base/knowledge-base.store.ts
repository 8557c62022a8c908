import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { users } from '../users/users.tables';
import {
  type KbChunkRow,
  type KbDocumentRow,
  kbChunks,
  kbDocumentAgents,
  kbDocuments,
} from './knowledge-base.tables';

/** A document with who made it (for `access_info`). */
export type KbDocumentWithCreator = KbDocumentRow & { creatorName: string; creatorEmail: string };

const documentWithCreator = {
  document: kbDocuments,
  creatorName: sql<string>`coalesce(${users.firstName}, '')`,
  creatorEmail: sql<string>`coalesce(${users.email}, '')`,
};

const flatten = (row: {
  document: KbDocumentRow;
  creatorName: string;
  creatorEmail: string;
}): KbDocumentWithCreator => ({
  ...row.document,
  creatorName: row.creatorName,
  creatorEmail: row.creatorEmail,
});

/** A new document and its chunks, together; `within` adds to the same transaction (its embedding job). */
export async function insertDocument(
  db: Db,
  document: typeof kbDocuments.$inferInsert,
  chunks: { id: string; content: string }[],
  within?: (tx: Db) => Promise<unknown>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(kbDocuments).values(document);
    await within?.(tx as unknown as Db);
    if (chunks.length)
      await tx.insert(kbChunks).values(
        chunks.map((chunk, position) => ({
          id: chunk.id,
          documentId: document.id,
          workspaceId: document.workspaceId,
          position,
          content: chunk.content,
        })),
      );
  });
}

/** A text document's new content: its row and all its chunks replaced together. */
export async function replaceDocumentContent(
  db: Db,
  id: string,
  set: Pick<
    KbDocumentRow,
    | 'contentHtml'
    | 'contentText'
    | 'contentFormat'
    | 'sizeBytes'
    | 'updatedAt'
    | 'embeddingStatus'
    | 'embeddingModel'
    | 'embeddingError'
  > & {
    name?: string;
  },
  workspaceId: string,
  chunks: { id: string; content: string }[],
  within?: (tx: Db) => Promise<unknown>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(kbDocuments).set(set).where(eq(kbDocuments.id, id));
    await within?.(tx as unknown as Db);
    await tx.delete(kbChunks).where(eq(kbChunks.documentId, id));
    if (chunks.length)
      await tx
        .insert(kbChunks)
        .values(chunks.map((c, position) => ({ ...c, documentId: id, workspaceId, position })));
  });
}

export async function renameDocument(db: Db, id: string, name: string, at: Date): Promise<void> {
  await db.update(kbDocuments).set({ name, updatedAt: at }).where(eq(kbDocuments.id, id));
}

/** A document of this workspace (another workspace's reads as absent). */
export async function getWorkspaceDocument(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<KbDocumentWithCreator | undefined> {
  const [row] = await db
    .select(documentWithCreator)
    .from(kbDocuments)
    .leftJoin(users, eq(users.id, kbDocuments.createdBy))
    .where(and(eq(kbDocuments.workspaceId, workspaceId), eq(kbDocuments.id, id)));
  return row && flatten(row);
}

/** The documents of this workspace among `ids` (id, name and type), in no particular order. */
export function findWorkspaceDocuments(db: Db, workspaceId: string, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({ id: kbDocuments.id, name: kbDocuments.name, type: kbDocuments.type })
    .from(kbDocuments)
    .where(and(eq(kbDocuments.workspaceId, workspaceId), inArray(kbDocuments.id, [...ids])));
}

export interface DocumentListQuery {
  workspaceId: string;
  search?: string | undefined;
  createdBy?: string | undefined;
  createdByPublicUserId?: string | undefined;
  types?: readonly string[] | undefined;
  sortBy: 'name' | 'created_at' | 'updated_at' | 'size';
  sortDirection: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** One page of a workspace's documents; one row more is read to tell whether more follow. */
export async function listDocumentPage(
  db: Db,
  query: DocumentListQuery,
): Promise<{ rows: KbDocumentWithCreator[]; hasMore: boolean }> {
  const where: SQL[] = [eq(kbDocuments.workspaceId, query.workspaceId)];
  if (query.search)
    where.push(ilike(kbDocuments.name, `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (query.createdBy) where.push(eq(kbDocuments.createdBy, query.createdBy));
  if (query.createdByPublicUserId) where.push(eq(users.publicUserId, query.createdByPublicUserId));
  if (query.types) where.push(inArray(kbDocuments.type, query.types as KbDocumentRow['type'][]));
  const column = {
    name: kbDocuments.name,
    created_at: kbDocuments.createdAt,
    updated_at: kbDocuments.updatedAt,
    size: kbDocuments.sizeBytes,
  }[query.sortBy];
  const order = query.sortDirection === 'asc' ? asc : desc;
  const rows = await db
    .select(documentWithCreator)
    .from(kbDocuments)
    .leftJoin(users, eq(users.id, kbDocuments.createdBy))
    .where(and(...where))
    .orderBy(order(column), order(kbDocuments.id))
    .offset(query.offset)
    .limit(query.limit + 1);
  return { rows: rows.slice(0, query.limit).map(flatten), hasMore: rows.length > query.limit };
}

export async function deleteDocumentRow(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(kbDocuments)
    .where(and(eq(kbDocuments.workspaceId, workspaceId), eq(kbDocuments.id, id)))
    .returning({ id: kbDocuments.id });
  return deleted.length > 0;
}

/** The bytes of extracted text the workspace's documents hold. */
export async function workspaceBytes(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<number>`coalesce(sum(${kbDocuments.sizeBytes}), 0)::int` })
    .from(kbDocuments)
    .where(eq(kbDocuments.workspaceId, workspaceId));
  return Number(row?.bytes ?? 0);
}

/** A document's chunks in order, a page at a time. */
export function listChunks(db: Db, documentId: string, offset: number, limit: number): Promise<KbChunkRow[]> {
  return db
    .select()
    .from(kbChunks)
    .where(eq(kbChunks.documentId, documentId))
    .orderBy(asc(kbChunks.position))
    .offset(offset)
    .limit(limit);
}

export async function countChunks(db: Db, documentId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(kbChunks)
    .where(eq(kbChunks.documentId, documentId));
  return Number(row?.n ?? 0);
}

export async function getChunk(db: Db, documentId: string, chunkId: string): Promise<KbChunkRow | undefined> {
  const [row] = await db
    .select()
    .from(kbChunks)
    .where(and(eq(kbChunks.documentId, documentId), eq(kbChunks.id, chunkId)));
  return row;
}

/** The agents that use each of `documentIds`. */
export function agentsUsing(db: Db, documentIds: readonly string[]) {
  if (documentIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(kbDocumentAgents)
    .where(inArray(kbDocumentAgents.documentId, [...documentIds]))
    .orderBy(asc(kbDocumentAgents.createdAt), asc(kbDocumentAgents.agentId));
}

/** Which documents an agent uses now: its rows replaced (none when it is deleted). */
export async function replaceAgentDocuments(
  db: Db,
  workspaceId: string,
  agent: { id: string; name: string },
  documentIds: readonly string[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(kbDocumentAgents).where(eq(kbDocumentAgents.agentId, agent.id));
    if (documentIds.length)
      await tx.insert(kbDocumentAgents).values(
        [...new Set(documentIds)].map((documentId) => ({
          documentId,
          agentId: agent.id,
          agentName: agent.name,
          workspaceId,
        })),
      );
  });
}

export interface ChunkSearch {
  workspaceId: string;
  /** Only these documents (an agent's); all of the workspace's when undefined. */
  documentIds?: readonly string[] | undefined;
  types?: readonly string[] | undefined;
  query: string;
  limit: number;
  /** Also a highlighted snippet of each passage (ts_headline; only for the search call). */
  headline?: boolean;
}

export interface ChunkHit {
  chunkId: string;
  documentId: string;
  documentName: string;
  position: number;
  content: string;
  score: number;
  headline?: string | undefined;
}

/** Marks ts_headline puts around each hit (control characters no document text keeps). */
export const HIT_START = '\u0001';
export const HIT_END = '\u0002';

/**
 * The passages that best answer a query, best first. The query's words are read as the chunks were (the
 * 'english' configuration: stems, no stop words), so "what are your opening hours?" looks for `open` and
 * `hour`. A passage matches if it holds ANY of them (the GIN index finds those), and is ranked by:
 * - coverage: the share of the query's words it holds, each weighted by how rare it is among the passages
 *   searched (BM25's inverse document frequency), so "opening hours" beats a passage that only says "open";
 * - +0.25 when it matches the query as a web search (`websearch_to_tsquery`: every word, "quoted phrases",
 *   -excluded words) — the strict reading comes first, the any-word reading is the fallback;
 * - +0.2 × PostgreSQL's cover density (`ts_rank_cd`, normalised to 0..1), for the words near each other.
 */
export async function searchChunks(db: Db, search: ChunkSearch): Promise<ChunkHit[]> {
  const scope: SQL[] = [eq(kbChunks.workspaceId, search.workspaceId)];
  if (search.documentIds) {
    if (search.documentIds.length === 0) return [];
    scope.push(inArray(kbChunks.documentId, [...search.documentIds]));
  }
  if (search.types) {
    scope.push(
      sql`${kbChunks.documentId} in (select ${kbDocuments.id} from ${kbDocuments} where ${inArray(
        kbDocuments.type,
        search.types as KbDocumentRow['type'][],
      )})`,
    );
  }
  const inScope = and(...scope);
  // Each word of the query, and in how many passages in scope it appears (through the GIN index).
  const stats = await db
    .select({
      lexeme: sql<string>`l.lexeme`,
      passages: sql<number>`(select count(*)::int from ${kbChunks} where ${inScope} and ${kbChunks.searchVector} @@ quote_literal(l.lexeme)::tsquery)`,
    })
    .from(sql`unnest(tsvector_to_array(to_tsvector('english', ${search.query}))) as l(lexeme)`);
  if (stats.length === 0) return [];
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(kbChunks).where(inScope);
  const n = Number(total?.n ?? 0);
  const words = stats
    .map((s) => ({ lexeme: s.lexeme, df: Number(s.passages) }))
    .filter((w) => w.df > 0)
    .map((w) => ({ ...w, weight: Math.log(1 + (n - w.df + 0.5) / (w.df + 0.5)) }));
  if (words.length === 0) return [];
  // All the query's words count in the share, found or not: a passage holding the only word found of
  // three is a partial answer.
  const missing = stats.length - words.length;
  const meanWeight = words.reduce((s, w) => s + w.weight, 0) / words.length;
  const totalWeight =
    words.reduce((s, w) => s + w.weight, 0) + missing * Math.max(meanWeight, Math.log(1 + n));
  const anyWord = sql`to_tsquery('simple', ${words.map((w) => `'${w.lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ')})`;
  const coverage = sql.join(
    words.map(
      (w) =>
        sql`(case when ${kbChunks.searchVector} @@ quote_literal(${w.lexeme}::text)::tsquery then ${w.weight}::float8 else 0 end)`,
    ),
    sql` + `,
  );
  const strict = sql`websearch_to_tsquery('english', ${search.query})`;
  const score = sql<number>`((${coverage}) / ${totalWeight}::float8
      + (case when numnode(${strict}) > 0 and ${kbChunks.searchVector} @@ ${strict} then 0.25 else 0 end)
      + 0.2 * (ts_rank_cd(${kbChunks.searchVector}, ${anyWord}, 32)))`;
  const rows = await db
    .select({
      chunkId: kbChunks.id,
      documentId: kbChunks.documentId,
      documentName: kbDocuments.name,
      position: kbChunks.position,
      content: kbChunks.content,
      score,
      ...(search.headline
        ? {
            headline: sql<string>`ts_headline('english', ${kbChunks.content}, ${anyWord}, ${`StartSel=${HIT_START}, StopSel=${HIT_END}, MaxWords=35, MinWords=15, MaxFragments=1`})`,
          }
        : {}),
    })
    .from(kbChunks)
    .innerJoin(kbDocuments, eq(kbDocuments.id, kbChunks.documentId))
    .where(and(inScope, sql`${kbChunks.searchVector} @@ ${anyWord}`))
    .orderBy(desc(score), asc(kbChunks.documentId), asc(kbChunks.position))
    .limit(search.limit);
  return rows.map((r) => ({ ...r, score: Math.round(Number(r.score) * 10_000) / 10_000 }));
}

/** Where a document's vectors are (undefined: the document is gone). */
export async function documentEmbeddingState(db: Db, documentId: string) {
  const [row] = await db
    .select({ status: kbDocuments.embeddingStatus, model: kbDocuments.embeddingModel })
    .from(kbDocuments)
    .where(eq(kbDocuments.id, documentId));
  return row;
}

/** A document's passages whose vector is still to compute, in order. */
export function chunksWithoutEmbedding(db: Db, documentId: string) {
  return db
    .select({ id: kbChunks.id, content: kbChunks.content })
    .from(kbChunks)
    .where(and(eq(kbChunks.documentId, documentId), isNull(kbChunks.embedding)))
    .orderBy(asc(kbChunks.position));
}

/** Passages' vectors, kept (a passage replaced meanwhile is simply not found). */
export async function setChunkEmbeddings(
  db: Db,
  rows: readonly { id: string; embedding: number[] }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const row of rows)
      await tx.update(kbChunks).set({ embedding: row.embedding }).where(eq(kbChunks.id, row.id));
  });
}

/** How many of a document's passages have a vector. */
export async function countEmbeddedChunks(db: Db, documentId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(kbChunks)
    .where(and(eq(kbChunks.documentId, documentId), isNotNull(kbChunks.embedding)));
  return Number(row?.n ?? 0);
}

export async function setDocumentEmbedding(
  db: Db,
  id: string,
  set: Pick<KbDocumentRow, 'embeddingStatus' | 'embeddingModel' | 'embeddingError'>,
  clearVectors = false,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(kbDocuments).set(set).where(eq(kbDocuments.id, id));
    if (clearVectors) await tx.update(kbChunks).set({ embedding: null }).where(eq(kbChunks.documentId, id));
  });
}

export interface VectorCandidate {
  chunkId: string;
  documentId: string;
  documentName: string;
  position: number;
  content: string;
  embedding: number[];
}

/**
 * The passages of these documents that have a vector from `model` (another model's vectors do not compare),
 * at most `limit`, in the documents' order; plus the passages named in `alsoChunkIds` (the full-text hits).
 */
export async function vectorCandidates(
  db: Db,
  search: { workspaceId: string; documentIds: readonly string[]; model: string; limit: number },
  alsoChunkIds: readonly string[],
): Promise<VectorCandidate[]> {
  if (search.documentIds.length === 0) return [];
  const columns = {
    chunkId: kbChunks.id,
    documentId: kbChunks.documentId,
    documentName: kbDocuments.name,
    position: kbChunks.position,
    content: kbChunks.content,
    embedding: kbChunks.embedding,
  };
  const scope = and(
    eq(kbChunks.workspaceId, search.workspaceId),
    inArray(kbChunks.documentId, [...search.documentIds]),
    eq(kbDocuments.embeddingModel, search.model),
    isNotNull(kbChunks.embedding),
  );
  const rows = await db
    .select(columns)
    .from(kbChunks)
    .innerJoin(kbDocuments, eq(kbDocuments.id, kbChunks.documentId))
    .where(scope)
    .orderBy(asc(kbChunks.documentId), asc(kbChunks.position))
    .limit(search.limit);
  const seen = new Set(rows.map((r) => r.chunkId));
  const extra = alsoChunkIds.filter((id) => !seen.has(id));
  if (extra.length)
    rows.push(
      ...(await db
        .select(columns)
        .from(kbChunks)
        .innerJoin(kbDocuments, eq(kbDocuments.id, kbChunks.documentId))
        .where(and(scope, inArray(kbChunks.id, extra)))),
    );
  return rows.flatMap((r) => (r.embedding ? [{ ...r, embedding: r.embedding }] : []));
}
