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
import type { UploadedFile } from '../../platform/multipart';
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
import {
  agentsUsing,
  type ChunkHit,
  countChunks,
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
  workspaceBytes,
} from './knowledge-base.store';

/** What the knowledge base's use cases need. */
export interface KnowledgeBaseDeps {
  db: Db;
  clock: Clock;
  settings: Config['knowledgeBase'];
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
      createdAt: now,
      updatedAt: now,
    },
    chunkText(extracted.text).map((content) => ({ id: newId(), content })),
  );
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
    await replaceDocumentContent(
      deps.db,
      id,
      {
        contentHtml: extracted.html,
        contentText: extracted.text,
        contentFormat: extracted.format,
        sizeBytes: Buffer.byteLength(extracted.text),
        updatedAt: deps.clock.now(),
        ...(body.name ? { name: body.name } : {}),
      },
      caller.workspaceId,
      chunkText(extracted.text).map((content) => ({ id: newId(), content })),
    );
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

/** What the server's retrieval index of a document is: full-text always, vectors only with a model. */
export async function ragIndexOf(
  deps: KnowledgeBaseDeps,
  document: KbDocumentWithCreator,
  model: 'e5_mistral_7b_instruct' | 'multilingual_e5_large_instruct',
) {
  const chunks = await countChunks(deps.db, document.id);
  return {
    id: `${document.id}_${model}`,
    model,
    status: chunks > 0 ? ('succeeded' as const) : ('document_too_small' as const),
    progress_percentage: 100,
    document_model_index_usage: { used_bytes: document.sizeBytes },
    search: 'full_text' as const,
    embeddings: 'not_configured' as const,
    message:
      chunks > 0
        ? `Indexed for full-text search (${chunks} ${chunks === 1 ? 'passage' : 'passages'}). No vector ` +
          'embeddings: this server has no embedding model configured, so retrieval matches words, not meaning.'
        : 'The document has no text to index.',
  };
}

/** Front door: the passages of `documentIds` (of this workspace) that best answer `query`. */
export async function searchKnowledge(
  deps: Pick<KnowledgeBaseDeps, 'db'>,
  workspaceId: string,
  documentIds: readonly string[],
  query: string,
  limit = 3,
): Promise<{ document_id: string; document_name: string; chunk_id: string; text: string; score: number }[]> {
  const hits = await searchChunks(deps.db, {
    workspaceId,
    documentIds,
    query: query.slice(0, 2000),
    limit: Math.max(1, Math.min(limit, 50)),
  });
  return hits.map((h) => ({
    document_id: h.documentId,
    document_name: h.documentName,
    chunk_id: h.chunkId,
    text: h.content,
    score: h.score,
  }));
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
  return {
    total_used_bytes: used,
    total_max_bytes: KB_MAX_WORKSPACE_BYTES,
    models: [],
    search: 'full_text' as const,
    embeddings: 'not_configured' as const,
    message:
      'Documents are indexed for PostgreSQL full-text search as they are added. No vector embeddings are ' +
      'computed: this server has no embedding model configured.',
  };
}
