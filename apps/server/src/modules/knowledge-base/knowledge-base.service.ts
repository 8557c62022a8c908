import {
  type CreateTextDocumentRequest,
  type CreateUrlDocumentRequest,
  KB_FILE_TYPES,
  KB_MAX_TEXT_CHARS,
  KB_MAX_URL_BYTES,
  KB_MAX_WORKSPACE_BYTES,
  type KbDocumentType,
  type ListKnowledgeBaseQuery,
} from '@parla/contracts';
import type { Config } from '../../config';
import type { RequestCaller } from '../../platform/auth-guard';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError, invalid, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { UploadedFile } from '../../platform/multipart';
import type { LlmEmbeddings } from '../../providers/llm/llm-provider';
import { chunkText } from './kb-chunking';
import {
  decodeUtf8,
  type Extracted,
  extractFile,
  extractHtml,
  extractMarkdown,
  extractPdf,
  extractPlainText,
  fileTypeOf,
} from './kb-extract';
import { fetchPage } from './kb-url';
import { embedDocumentJob } from './knowledge-base.jobs';
import {
  agentsUsing,
  type ChunkHit,
  countChunks,
  countEmbeddedChunks,
  deleteDocumentRow,
  findWorkspaceDocuments,
  getChunk,
  getWorkspaceDocument,
  insertDocument,
  type KbDocumentWithCreator,
  listChunks,
  listDocumentPage,
  renameDocument,
  replaceAgentDocuments,
  replaceDocumentContent,
  searchChunks,
  setDocumentEmbedding,
  vectorCandidates,
  workspaceBytes,
} from './knowledge-base.store';

/** What the knowledge base's use cases need. */
export interface KnowledgeBaseDeps {
  db: Db;
  clock: Clock;
  settings: Config['knowledgeBase'];
  /** Where the embedding job goes. */
  queue: Pick<JobQueue, 'enqueueIn' | 'wake'>;
  /** The LLM provider's embedding model when one is configured and available (issue 28 item 3). */
  embeddings: LlmEmbeddings | undefined;
  /** The least cosine similarity a passage matched by meaning alone needs (LLM_EMBEDDING_MIN_SIMILARITY). */
  minSimilarity: number;
}

/** The configured embedding model's name, or null. */
function embeddingModelOf(deps: Pick<KnowledgeBaseDeps, 'embeddings'>): string | null {
  const status = deps.embeddings?.status();
  return status?.available ? status.model : null;
}

/**
 * A document's embedding fields as it is (re)indexed, and the job that computes its vectors when a model
 * is configured (enqueued in the same transaction as the passages: no document is left pending without one).
 */
function embeddingPlan(deps: KnowledgeBaseDeps, documentId: string, chunkCount: number) {
  const model = embeddingModelOf(deps);
  if (!model || chunkCount === 0)
    return {
      fields: { embeddingStatus: 'none' as const, embeddingModel: null, embeddingError: null },
      within: undefined,
    };
  return {
    fields: { embeddingStatus: 'pending' as const, embeddingModel: model, embeddingError: null },
    within: (tx: Db) => deps.queue.enqueueIn(tx, embedDocumentJob, { documentId }),
  };
}

type Caller = Pick<RequestCaller, 'userId' | 'workspaceId'>;

const documentNotFound = () => notFound('The document');

/** Folders are not kept by this server: a document can only be put at the top. */
function refuseFolder(parentFolderId: string | undefined): void {
  if (parentFolderId) throw notFound('The folder');
}

/** An opaque page cursor: the offset of the next page. */
export const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
export function decodeCursor(cursor: string | undefined, field = 'cursor'): number {
  if (!cursor) return 0;
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw invalid(field, 'The cursor is not one this server gave.', 'query');
  return Number(match[1]);
}

/** The first words of a text, as the name of a document made from it. */
function nameFromText(text: string): string {
  const line = text.trim().split(/\n/)[0]?.replace(/\s+/g, ' ').trim() ?? '';
  return line.length <= 60 ? line || 'Text' : `${line.slice(0, 59).replace(/\s+\S*$/, '')}…`;
}

/** Chunks the extracted text and keeps the document, within the server's limits. */
async function keepDocument(
  deps: KnowledgeBaseDeps,
  caller: Caller,
  extracted: Extracted,
  fields: { type: Exclude<KbDocumentType, 'folder'>; name: string; filename?: string; url?: string },
): Promise<{ id: string; name: string }> {
  if (extracted.text.length > KB_MAX_TEXT_CHARS)
    throw new AppError(
      'payload_too_large',
      `The document holds more than ${KB_MAX_TEXT_CHARS.toLocaleString('en')} characters of text.`,
    );
  const sizeBytes = Buffer.byteLength(extracted.text);
  if ((await workspaceBytes(deps.db, caller.workspaceId)) + sizeBytes > KB_MAX_WORKSPACE_BYTES)
    throw new AppError(
      'payload_too_large',
      `The knowledge base would pass its ${KB_MAX_WORKSPACE_BYTES / 1024 / 1024} MB of text: delete documents first.`,
    );
  const id = newId();
  const now = deps.clock.now();
  const name = fields.name.slice(0, 200);
  const chunks = chunkText(extracted.text).map((content) => ({ id: newId(), content }));
  const plan = embeddingPlan(deps, id, chunks.length);
  await insertDocument(
    deps.db,
    {
      id,
      workspaceId: caller.workspaceId,
      createdBy: caller.userId,
      name,
      type: fields.type,
      sourceFormat: extracted.sourceFormat,
      filename: fields.filename ?? null,
      url: fields.url ?? null,
      contentHtml: extracted.html,
      contentFormat: extracted.format,
      contentText: extracted.text,
      sizeBytes,
      ...plan.fields,
      createdAt: now,
      updatedAt: now,
    },
    chunks,
    plan.within,
  );
  if (plan.within) deps.queue.wake();
  return { id, name };
}

/** `POST /v1/convai/knowledge-base/text`. */
export async function createTextDocument(
  deps: KnowledgeBaseDeps,
  caller: Caller,
  body: CreateTextDocumentRequest,
): Promise<{ id: string; name: string }> {
  refuseFolder(body.parent_folder_id);
  const extracted = extractPlainText(body.text);
  return keepDocument(deps, caller, extracted, { type: 'text', name: body.name ?? nameFromText(body.text) });
}

/** `POST /v1/convai/knowledge-base/file`: pdf, docx, txt, html, md or epub. */
export async function createFileDocument(
  deps: KnowledgeBaseDeps,
  caller: Caller,
  input: { file: UploadedFile | undefined; name?: string | undefined; parentFolderId?: string | undefined },
): Promise<{ id: string; name: string }> {
  refuseFolder(input.parentFolderId);
  if (!input.file) throw invalid('file', 'Attach the file to add (form field "file").');
  if (input.file.bytes.length === 0) throw invalid('file', 'The file is empty.');
  const type = fileTypeOf(input.file.filename ?? '', input.file.mimetype ?? '');
  if (!type)
    throw new AppError(
      'unsupported_media_type',
      `This file type cannot be added to the knowledge base: send ${Object.keys(KB_FILE_TYPES)
        .filter((t) => t !== 'htm')
        .join(', ')}.`,
    );
  const extracted = await extractFile(input.file.bytes, type);
  const filename = input.file.filename || `document.${type}`;
  return keepDocument(deps, caller, extracted, {
    type: 'file',
    name: input.name ?? filename,
    filename,
  });
}

/** `POST /v1/convai/knowledge-base/url`: one page, read by its content type. */
export async function createUrlDocument(
  deps: KnowledgeBaseDeps,
  caller: Caller,
  body: CreateUrlDocumentRequest,
): Promise<{ id: string; name: string }> {
  refuseFolder(body.parent_folder_id);
  const page = await fetchPage(body.url, {
    privateHosts: deps.settings.privateHosts,
    timeoutMs: deps.settings.urlTimeoutMs,
    maxBytes: KB_MAX_URL_BYTES,
  });
  let extracted: Extracted;
  const type = page.contentType;
  if (type === 'text/html' || type === 'application/xhtml+xml' || type === '')
    extracted = extractHtml(decodeUtf8(page.bytes, 'page'));
  else if (type === 'text/plain') extracted = extractPlainText(decodeUtf8(page.bytes, 'page'), 'txt');
  else if (type === 'text/markdown' || type === 'text/x-markdown')
    extracted = extractMarkdown(decodeUtf8(page.bytes, 'page'));
  else if (type === 'application/pdf') extracted = await extractPdf(page.bytes);
  else
    throw new AppError(
      'unsupported_media_type',
      `The page is ${type}, which cannot be added: a web page (HTML), text, markdown or a PDF can.`,
    );
  return keepDocument(deps, caller, extracted, {
    type: 'url',
    name: body.name ?? extracted.title ?? page.url,
    url: page.url,
  });
}

export async function requireDocument(
  deps: Pick<KnowledgeBaseDeps, 'db'>,
  caller: Caller,
  id: string,
): Promise<KbDocumentWithCreator> {
  const document = await getWorkspaceDocument(deps.db, caller.workspaceId, id);
  if (!document) throw documentNotFound();
  return document;
}

export interface DependentAgent {
  id: string;
  name: string;
  createdAt: Date;
}

/** The agents using each document, by document id. */
export async function dependentAgentsOf(
  deps: Pick<KnowledgeBaseDeps, 'db'>,
  documentIds: readonly string[],
): Promise<Map<string, DependentAgent[]>> {
  const byDocument = new Map<string, DependentAgent[]>();
  for (const row of await agentsUsing(deps.db, documentIds)) {
    const list = byDocument.get(row.documentId) ?? [];
    list.push({ id: row.agentId, name: row.agentName, createdAt: row.createdAt });
    byDocument.set(row.documentId, list);
  }
  return byDocument;
}

/** `GET /v1/convai/knowledge-base`. */
export async function listDocuments(deps: KnowledgeBaseDeps, caller: Caller, query: ListKnowledgeBaseQuery) {
  const offset = decodeCursor(query.cursor);
  // Folders are not kept: a folder filter, or asking for folders only, finds nothing.
  const types = query.types?.filter((t) => t !== 'folder');
  if (query.parent_folder_id || query.ancestor_folder_id || (types && types.length === 0))
    return { rows: [], agents: new Map<string, DependentAgent[]>(), nextCursor: null, hasMore: false };
  const page = await listDocumentPage(deps.db, {
    workspaceId: caller.workspaceId,
    search: query.search,
    createdBy: query.show_only_owned_documents ? caller.userId : undefined,
    createdByPublicUserId: query.created_by_user_id,
    types,
    sortBy: query.sort_by,
    sortDirection: query.sort_direction,
    offset,
    limit: query.page_size,
  });
  return {
    rows: page.rows,
    agents: await dependentAgentsOf(
      deps,
      page.rows.map((r) => r.id),
    ),
    nextCursor: page.hasMore ? encodeCursor(offset + page.rows.length) : null,
    hasMore: page.hasMore,
  };
}

/** `PATCH /v1/convai/knowledge-base/{id}`: a new name, or a text document's new text. */
export async function updateDocument(
  deps: KnowledgeBaseDeps,
  caller: Caller,
  id: string,
  body: { name?: string | undefined; content?: string | undefined },
): Promise<KbDocumentWithCreator> {
  const document = await requireDocument(deps, caller, id);
  if (body.content !== undefined) {
    if (document.type !== 'text')
      throw invalid(
        'content',
        'Only a text document’s content can be replaced; add the new file or page instead.',
      );
    const extracted = extractPlainText(body.content);
    const chunks = chunkText(extracted.text).map((content) => ({ id: newId(), content }));
    const plan = embeddingPlan(deps, id, chunks.length);
    await replaceDocumentContent(
      deps.db,
      id,
      {
        contentHtml: extracted.html,
        contentText: extracted.text,
        contentFormat: extracted.format,
        sizeBytes: Buffer.byteLength(extracted.text),
        updatedAt: deps.clock.now(),
        ...plan.fields,
        ...(body.name ? { name: body.name } : {}),
      },
      caller.workspaceId,
      chunks,
      plan.within,
    );
    if (plan.within) deps.queue.wake();
  } else if (body.name !== undefined) {
    await renameDocument(deps.db, id, body.name, deps.clock.now());
  }
  return requireDocument(deps, caller, id);
}

/** `DELETE /v1/convai/knowledge-base/{id}`: refused while agents use it, unless `force`. */
export async function deleteDocument(
  deps: KnowledgeBaseDeps,
  caller: Caller,
  id: string,
  force: boolean,
): Promise<void> {
  await requireDocument(deps, caller, id);
  const agents = (await dependentAgentsOf(deps, [id])).get(id) ?? [];
  if (agents.length > 0 && !force) {
    const names = agents.map((a) => `“${a.name}”`).join(', ');
    throw new AppError(
      'conflict',
      `The document is used by ${agents.length === 1 ? 'the agent' : 'the agents'} ${names}: remove it from ${
        agents.length === 1 ? 'that agent' : 'them'
      } first, or delete it with force=true.`,
    );
  }
  if (!(await deleteDocumentRow(deps.db, caller.workspaceId, id))) throw documentNotFound();
}

export async function documentChunks(
  deps: KnowledgeBaseDeps,
  caller: Caller,
  id: string,
  cursor: string | undefined,
  pageSize: number,
) {
  const document = await requireDocument(deps, caller, id);
  const offset = decodeCursor(cursor);
  const rows = await listChunks(deps.db, id, offset, pageSize + 1);
  return {
    document,
    chunks: rows.slice(0, pageSize),
    nextCursor: rows.length > pageSize ? encodeCursor(offset + pageSize) : null,
  };
}

export async function documentChunk(deps: KnowledgeBaseDeps, caller: Caller, id: string, chunkId: string) {
  const document = await requireDocument(deps, caller, id);
  const chunk = await getChunk(deps.db, id, chunkId);
  if (!chunk) throw notFound('The chunk');
  return { document, chunk };
}

/** `GET /v1/convai/knowledge-base/search`: documents by their best passage, best first. */
export async function searchDocuments(
  deps: KnowledgeBaseDeps,
  caller: Caller,
  query: {
    query: string;
    page_size: number;
    types?: KbDocumentType[] | undefined;
    cursor?: string | undefined;
  },
) {
  const offset = decodeCursor(query.cursor);
  const types = query.types?.filter((t) => t !== 'folder');
  if (types && types.length === 0) return { results: [], nextCursor: null };
  const hits = await searchChunks(deps.db, {
    workspaceId: caller.workspaceId,
    types,
    query: query.query,
    limit: 500,
    headline: true,
  });
  const best = new Map<string, ChunkHit>();
  for (const hit of hits) if (!best.has(hit.documentId)) best.set(hit.documentId, hit);
  const ranked = [...best.values()];
  const page = ranked.slice(offset, offset + query.page_size);
  const documents = new Map<string, KbDocumentWithCreator>();
  for (const hit of page) {
    const document = await getWorkspaceDocument(deps.db, caller.workspaceId, hit.documentId);
    if (document) documents.set(document.id, document);
  }
  return {
    results: page.flatMap((hit) => {
      const document = documents.get(hit.documentId);
      return document ? [{ hit, document }] : [];
    }),
    agents: await dependentAgentsOf(deps, [...documents.keys()]),
    nextCursor: ranked.length > offset + query.page_size ? encodeCursor(offset + query.page_size) : null,
  };
}

/**
 * What the server's retrieval index of a document is: full-text always (written with the passages), and
 * vectors when an embedding model is configured (computed by the knowledge-base.embed job). The public
 * `status` follows the vectors when there are to be any: `processing` while they are computed, `failed` when
 * they could not be (the message says why; full-text search still finds the document).
 */
export async function ragIndexOf(
  deps: KnowledgeBaseDeps,
  document: KbDocumentWithCreator,
  model: 'e5_mistral_7b_instruct' | 'multilingual_e5_large_instruct',
) {
  const chunks = await countChunks(deps.db, document.id);
  const configured = embeddingModelOf(deps);
  const base = {
    id: `${document.id}_${model}`,
    model,
    document_model_index_usage: { used_bytes: document.sizeBytes },
    search: 'full_text' as const,
  };
  const passages = `${chunks} ${chunks === 1 ? 'passage' : 'passages'}`;
  if (chunks === 0)
    return {
      ...base,
      status: 'document_too_small' as const,
      progress_percentage: 100,
      embeddings: configured ? ('failed' as const) : ('not_configured' as const),
      embedding_model: configured,
      message: 'The document has no text to index.',
    };
  if (!configured)
    return {
      ...base,
      status: 'succeeded' as const,
      progress_percentage: 100,
      embeddings: 'not_configured' as const,
      embedding_model: null,
      message:
        `Indexed for full-text search (${passages}). No vector ` +
        'embeddings: this server has no embedding model configured, so retrieval matches words, not meaning.',
    };
  const current = document.embeddingModel === configured;
  if (document.embeddingStatus === 'computed' && current)
    return {
      ...base,
      status: 'succeeded' as const,
      progress_percentage: 100,
      embeddings: 'computed' as const,
      embedding_model: configured,
      message: `Indexed for full-text search and by meaning with ${configured} (${passages}).`,
    };
  if (document.embeddingStatus === 'pending' && current) {
    const done = await countEmbeddedChunks(deps.db, document.id);
    return {
      ...base,
      status: 'processing' as const,
      progress_percentage: Math.floor((100 * done) / chunks),
      embeddings: 'pending' as const,
      embedding_model: configured,
      message:
        `Indexed for full-text search (${passages}); computing vectors with ${configured}: ${done} of ${chunks} done.` +
        (document.embeddingError ? ` The last try failed (it is retried): ${document.embeddingError}` : ''),
    };
  }
  if (document.embeddingStatus === 'failed' && current)
    return {
      ...base,
      status: 'failed' as const,
      progress_percentage: Math.floor((100 * (await countEmbeddedChunks(deps.db, document.id))) / chunks),
      embeddings: 'failed' as const,
      embedding_model: configured,
      message:
        `Indexed for full-text search (${passages}), but its vectors could not be computed with ${configured}: ` +
        `${document.embeddingError ?? 'no reason was given'} Compute the index again to retry.`,
    };
  // Indexed before this model was configured (or with another one): its vectors are missing or do not compare.
  return {
    ...base,
    status: 'created' as const,
    progress_percentage: 0,
    embeddings: 'outdated' as const,
    embedding_model: configured,
    message:
      `Indexed for full-text search (${passages}); no vectors from ${configured} yet` +
      (document.embeddingModel ? ` (they were computed with ${document.embeddingModel})` : '') +
      ': compute the index to add them.',
  };
}

/**
 * `POST …/{id}/rag-index` (and the batch's `create_if_missing`): starts computing the document's vectors
 * when a model is configured and they are missing, outdated or failed; then answers the index as it is.
 */
export async function computeRagIndex(
  deps: KnowledgeBaseDeps,
  document: KbDocumentWithCreator,
  model: 'e5_mistral_7b_instruct' | 'multilingual_e5_large_instruct',
) {
  const configured = embeddingModelOf(deps);
  const upToDate =
    document.embeddingModel === configured &&
    (document.embeddingStatus === 'computed' || document.embeddingStatus === 'pending');
  if (configured && !upToDate && (await countChunks(deps.db, document.id)) > 0) {
    const fields = { embeddingStatus: 'pending' as const, embeddingModel: configured, embeddingError: null };
    await deps.db.transaction(async (tx) => {
      await setDocumentEmbedding(
        tx as unknown as Db,
        document.id,
        fields,
        document.embeddingModel !== configured,
      );
      await deps.queue.enqueueIn(tx as unknown as Db, embedDocumentJob, { documentId: document.id });
    });
    deps.queue.wake();
    return ragIndexOf(deps, { ...document, ...fields }, model);
  }
  return ragIndexOf(deps, document, model);
}

/** How many candidate passages a turn compares by vector at most (each a few KB of floats to read). */
export const MAX_VECTOR_CANDIDATES = 2000;
/** Full-text hits fetched per query, each a candidate whatever the bound above leaves out. */
const FULL_TEXT_CANDIDATES = 50;
/** The hybrid score: meaning weighs more than words, full-text's score (about 0…1.45) capped at 1. */
const VECTOR_WEIGHT = 0.6;

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Full-text hits and vector similarity together: each candidate's score is
 * 0.6 × cosine(query, passage) + 0.4 × min(1, full-text score). A passage no query word matches is kept only
 * when its cosine reaches `minSimilarity` (so a question about something else still finds nothing).
 */
export function combineScores<T extends { chunkId: string; embedding: number[] }>(
  queryVector: readonly number[],
  candidates: readonly T[],
  fullText: ReadonlyMap<string, number>,
  minSimilarity: number,
): (T & { score: number })[] {
  const out: (T & { score: number })[] = [];
  for (const c of candidates) {
    const similarity = cosine(queryVector, c.embedding);
    const words = fullText.get(c.chunkId);
    if (words === undefined && similarity < minSimilarity) continue;
    const score = VECTOR_WEIGHT * Math.max(0, similarity) + (1 - VECTOR_WEIGHT) * Math.min(1, words ?? 0);
    out.push({ ...c, score: Math.round(score * 10_000) / 10_000 });
  }
  return out.sort((a, b) => b.score - a.score);
}

export interface KnowledgeHit {
  document_id: string;
  document_name: string;
  chunk_id: string;
  text: string;
  score: number;
  /** How it was found: `full_text`, or the embedding model whose vectors ranked it with the words. */
  retrieval: string;
}

/**
 * Front door: the passages of `documentIds` (of this workspace) that best answer `query`. With an embedding
 * model configured, the query is embedded and compared (cosine, in TypeScript) with the vectors of at most
 * MAX_VECTOR_CANDIDATES passages of these documents (in the documents' order) plus the best full-text hits,
 * and both scores combine (`combineScores`). Without one, or when the query cannot be embedded (the error is
 * given to `onError`), full-text search alone answers.
 */
export async function searchKnowledge(
  deps: Pick<KnowledgeBaseDeps, 'db' | 'embeddings' | 'minSimilarity'>,
  workspaceId: string,
  documentIds: readonly string[],
  query: string,
  limit = 3,
  options: { signal?: AbortSignal; onError?: (error: unknown) => void } = {},
): Promise<KnowledgeHit[]> {
  const text = query.slice(0, 2000);
  const count = Math.max(1, Math.min(limit, 50));
  const model = embeddingModelOf(deps);
  const hits = await searchChunks(deps.db, {
    workspaceId,
    documentIds,
    query: text,
    limit: model ? FULL_TEXT_CANDIDATES : count,
  });
  const fullTextOnly = () =>
    hits.slice(0, count).map((h) => ({
      document_id: h.documentId,
      document_name: h.documentName,
      chunk_id: h.chunkId,
      text: h.content,
      score: h.score,
      retrieval: 'full_text',
    }));
  if (!model || !deps.embeddings || !text.trim() || documentIds.length === 0) return fullTextOnly();
  let queryVector: number[] | undefined;
  try {
    [queryVector] = await deps.embeddings.embed([text], { signal: options.signal });
  } catch (error) {
    options.onError?.(error);
    return fullTextOnly();
  }
  if (!queryVector) return fullTextOnly();
  const candidates = await vectorCandidates(
    deps.db,
    { workspaceId, documentIds, model, limit: MAX_VECTOR_CANDIDATES },
    hits.map((h) => h.chunkId),
  );
  // Passages without vectors (a document still being embedded) keep their full-text place below.
  const compared = new Set(candidates.map((c) => c.chunkId));
  const ranked = combineScores(
    queryVector,
    candidates,
    new Map(hits.map((h) => [h.chunkId, h.score])),
    deps.minSimilarity,
  ).map((c) => ({
    document_id: c.documentId,
    document_name: c.documentName,
    chunk_id: c.chunkId,
    text: c.content,
    score: c.score,
    retrieval: model,
  }));
  const rest = fullTextOnly().filter((h) => !compared.has(h.chunk_id));
  return [...ranked, ...rest].slice(0, count);
}

/** Front door: which of `ids` are documents of this workspace (id, name, type); the others are absent. */
export function findDocuments(
  deps: Pick<KnowledgeBaseDeps, 'db'>,
  workspaceId: string,
  ids: readonly string[],
) {
  return findWorkspaceDocuments(deps.db, workspaceId, ids);
}

/**
 * Front door: the documents an agent uses now (none when it is deleted), so the list shows them as its
 * dependents and a delete without `force` is refused. Refuses ids that are not this workspace's documents.
 */
export async function setAgentDocuments(
  deps: Pick<KnowledgeBaseDeps, 'db'>,
  workspaceId: string,
  agent: { id: string; name: string },
  documentIds: readonly string[],
): Promise<void> {
  const found = new Set((await findWorkspaceDocuments(deps.db, workspaceId, documentIds)).map((d) => d.id));
  const missing = documentIds.filter((id) => !found.has(id));
  if (missing.length) throw notFound(`The knowledge-base document ${missing[0]}`);
  await replaceAgentDocuments(deps.db, workspaceId, agent, documentIds);
}

/** `GET /v1/convai/knowledge-base/rag-index`: what the workspace's indexes hold. */
export async function ragOverview(deps: KnowledgeBaseDeps, caller: Caller) {
  const used = await workspaceBytes(deps.db, caller.workspaceId);
  const model = embeddingModelOf(deps);
  const base = {
    total_used_bytes: used,
    total_max_bytes: KB_MAX_WORKSPACE_BYTES,
    models: [],
    search: 'full_text' as const,
    embedding_model: model,
  };
  if (model)
    return {
      ...base,
      embeddings: 'computed' as const,
      message:
        'Documents are indexed for PostgreSQL full-text search as they are added, and their passages get ' +
        `vectors from ${model} in the background; retrieval combines the words and the meaning.`,
    };
  return {
    ...base,
    embeddings: 'not_configured' as const,
    message:
      'Documents are indexed for PostgreSQL full-text search as they are added. No vector embeddings are ' +
      `computed: ${deps.embeddings?.status().reason ?? 'this server has no embedding model configured (LLM_EMBEDDING_MODEL).'}`,
  };
}
