import {
  CreateFileDocumentFields,
  computeRagIndexRoute,
  createKnowledgeBaseFileRoute,
  createKnowledgeBaseTextRoute,
  createKnowledgeBaseUrlRoute,
  deleteDocumentRagIndexRoute,
  deleteKnowledgeBaseDocumentRoute,
  getDocumentRagIndexesRoute,
  getKnowledgeBaseChunkRoute,
  getKnowledgeBaseContentRoute,
  getKnowledgeBaseDependentAgentsRoute,
  getKnowledgeBaseDocumentRoute,
  KB_EMBEDDING_MODELS,
  KB_MAX_FILE_BYTES,
  listKnowledgeBaseChunksRoute,
  listKnowledgeBaseRoute,
  ragIndexBatchRoute,
  ragIndexOverviewRoute,
  searchKnowledgeBaseRoute,
  updateKnowledgeBaseDocumentRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { AppError, notFound } from '../../platform/errors';
import { acceptMultipart, readMultipartForm } from '../../platform/multipart';
import { registerRoute } from '../../platform/route';
import { toChunkResponse, toDocumentResponse, toDocumentSummary, toSnippet } from './knowledge-base.present';
import {
  computeRagIndex,
  createFileDocument,
  createTextDocument,
  createUrlDocument,
  decodeCursor,
  deleteDocument,
  dependentAgentsOf,
  documentChunk,
  documentChunks,
  encodeCursor,
  type KnowledgeBaseDeps,
  listDocuments,
  ragIndexOf,
  ragOverview,
  requireDocument,
  searchDocuments,
  updateDocument,
} from './knowledge-base.service';

/** What the knowledge base's use cases need, from the app's. */
export function knowledgeBaseDepsOf(deps: AppDeps): KnowledgeBaseDeps {
  return {
    db: deps.database.db,
    clock: deps.clock,
    settings: deps.config.knowledgeBase,
    queue: deps.queue,
    embeddings: deps.providers.llm.embeddings,
    minSimilarity: deps.config.llm.embedding?.minSimilarity ?? 1,
  };
}

/**
 * `/v1/convai/knowledge-base…` (issue 28 item 3), the calls of the SDK's `conversationalAi.knowledgeBase`.
 * Every member of a workspace reads and changes its knowledge base, as they do its agents.
 */
export async function knowledgeBaseRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await acceptMultipart(app, KB_MAX_FILE_BYTES);
  const kb = knowledgeBaseDepsOf(deps);
  const guarded = { onRequest: deps.auth.requireAuth };

  registerRoute(
    app,
    createKnowledgeBaseTextRoute,
    async ({ request, body }) => createTextDocument(kb, callerOf(request), body),
    guarded,
  );
  registerRoute(
    app,
    createKnowledgeBaseFileRoute,
    async ({ request }) => {
      const caller = callerOf(request);
      const form = await readMultipartForm(request, 'file', CreateFileDocumentFields);
      return createFileDocument(kb, caller, {
        file: form.file,
        name: form.fields.name,
        parentFolderId: form.fields.parent_folder_id,
      });
    },
    guarded,
  );
  registerRoute(
    app,
    createKnowledgeBaseUrlRoute,
    async ({ request, body }) => createUrlDocument(kb, callerOf(request), body),
    guarded,
  );
  registerRoute(
    app,
    listKnowledgeBaseRoute,
    async ({ request, query }) => {
      const caller = callerOf(request);
      const page = await listDocuments(kb, caller, query);
      return {
        documents: page.rows.map((row) =>
          toDocumentSummary(row, caller.userId, page.agents.get(row.id) ?? []),
        ),
        next_cursor: page.nextCursor,
        has_more: page.hasMore,
      };
    },
    guarded,
  );
  registerRoute(
    app,
    searchKnowledgeBaseRoute,
    async ({ request, query }) => {
      const caller = callerOf(request);
      const found = await searchDocuments(kb, caller, query);
      return {
        results: found.results.map(({ hit, document }) => ({
          document: toDocumentSummary(document, caller.userId, found.agents?.get(document.id) ?? []),
          search_snippet: toSnippet(hit.headline),
          score: hit.score,
        })),
        next_cursor: found.nextCursor,
      };
    },
    guarded,
  );
  registerRoute(
    app,
    ragIndexOverviewRoute,
    async ({ request }) => ragOverview(kb, callerOf(request)),
    guarded,
  );
  registerRoute(
    app,
    ragIndexBatchRoute,
    async ({ request, body }) => {
      const caller = callerOf(request);
      const out: Record<string, unknown> = {};
      for (const item of body.items) {
        try {
          const document = await requireDocument(kb, caller, item.document_id);
          out[item.document_id] = {
            status: 'success',
            data: item.create_if_missing
              ? await computeRagIndex(kb, document, item.model)
              : await ragIndexOf(kb, document, item.model),
          };
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          out[item.document_id] = {
            status: 'failure',
            error_code: error.status,
            error_status: error.code,
            error_message: error.message,
          };
        }
      }
      return out as never;
    },
    guarded,
  );
  registerRoute(
    app,
    getKnowledgeBaseDocumentRoute,
    async ({ request, params }) => {
      const caller = callerOf(request);
      return toDocumentResponse(await requireDocument(kb, caller, params.documentation_id), caller.userId);
    },
    guarded,
  );
  registerRoute(
    app,
    updateKnowledgeBaseDocumentRoute,
    async ({ request, params, body }) => {
      const caller = callerOf(request);
      return toDocumentResponse(
        await updateDocument(kb, caller, params.documentation_id, body),
        caller.userId,
      );
    },
    guarded,
  );
  registerRoute(
    app,
    deleteKnowledgeBaseDocumentRoute,
    async ({ request, params, query }) => {
      await deleteDocument(kb, callerOf(request), params.documentation_id, query.force);
      return {};
    },
    guarded,
  );
  registerRoute(
    app,
    getKnowledgeBaseContentRoute,
    async ({ request, reply, params }) => {
      const document = await requireDocument(kb, callerOf(request), params.documentation_id);
      reply.header(
        'content-type',
        document.contentFormat === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8',
      );
      // What it was made of is the caller's text: never let a browser run it as this origin's page.
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      return document.contentHtml;
    },
    guarded,
  );
  registerRoute(
    app,
    getKnowledgeBaseDependentAgentsRoute,
    async ({ request, params, query }) => {
      await requireDocument(kb, callerOf(request), params.documentation_id);
      const all = (await dependentAgentsOf(kb, [params.documentation_id])).get(params.documentation_id) ?? [];
      const offset = decodeCursor(query.cursor);
      const page = all.slice(offset, offset + query.page_size);
      const more = all.length > offset + query.page_size;
      return {
        agents: page.map((a) => ({
          type: 'available' as const,
          id: a.id,
          name: a.name,
          created_at_unix_secs: Math.floor(a.createdAt.getTime() / 1000),
          access_level: 'editor' as const,
        })),
        next_cursor: more ? encodeCursor(offset + query.page_size) : null,
        has_more: more,
      };
    },
    guarded,
  );
  registerRoute(
    app,
    getKnowledgeBaseChunkRoute,
    async ({ request, params }) => {
      const { document, chunk } = await documentChunk(
        kb,
        callerOf(request),
        params.documentation_id,
        params.chunk_id,
      );
      return toChunkResponse(chunk, document.name);
    },
    guarded,
  );
  registerRoute(
    app,
    listKnowledgeBaseChunksRoute,
    async ({ request, params, query }) => {
      const page = await documentChunks(
        kb,
        callerOf(request),
        params.documentation_id,
        query.cursor,
        query.page_size,
      );
      return {
        chunks: page.chunks.map((c) => toChunkResponse(c, page.document.name)),
        next_cursor: page.nextCursor,
      };
    },
    guarded,
  );
  registerRoute(
    app,
    computeRagIndexRoute,
    async ({ request, params, body }) => {
      const document = await requireDocument(kb, callerOf(request), params.documentation_id);
      return computeRagIndex(kb, document, body.model);
    },
    guarded,
  );
  registerRoute(
    app,
    getDocumentRagIndexesRoute,
    async ({ request, params }) => {
      const document = await requireDocument(kb, callerOf(request), params.documentation_id);
      return {
        indexes: await Promise.all(KB_EMBEDDING_MODELS.map((model) => ragIndexOf(kb, document, model))),
      };
    },
    guarded,
  );
  registerRoute(
    app,
    deleteDocumentRagIndexRoute,
    async ({ request, params }) => {
      const document = await requireDocument(kb, callerOf(request), params.documentation_id);
      const model = KB_EMBEDDING_MODELS.find((m) => params.rag_index_id === `${document.id}_${m}`);
      if (!model) throw notFound('The RAG index');
      // The full-text index is the document's own: it goes with the document, not on its own.
      return ragIndexOf(kb, document, model);
    },
    guarded,
  );
}
