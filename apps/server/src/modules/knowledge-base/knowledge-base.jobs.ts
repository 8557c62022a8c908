import { z } from 'zod';
import type { Db } from '../../platform/db/client';
import { defineJob, NonRetryableJobError } from '../../platform/jobs/job-definition';
import { type LlmEmbeddings, LlmError } from '../../providers/llm/llm-provider';
import {
  chunksWithoutEmbedding,
  countChunks,
  documentEmbeddingState,
  setChunkEmbeddings,
  setDocumentEmbedding,
} from './knowledge-base.store';

/** Passages embedded and kept per step: the progress the RAG status shows moves by this much. */
const STEP = 64;

/**
 * A document's passage vectors (issue 28 item 3), computed after it is indexed for full-text search (which
 * PostgreSQL does as the passages are written) when an embedding model is configured. The passages without a
 * vector are embedded in steps and kept as they come, so a retry goes on where the last run stopped. A
 * server that refuses the input (4xx) is not retried; the document's RAG status then says `failed` and why
 * (full-text search still finds it).
 */
export const embedDocumentJob = defineJob<
  { documentId: string },
  { db: Db; embeddings: LlmEmbeddings | undefined }
>({
  name: 'knowledge-base.embed',
  payload: z.object({ documentId: z.string().min(1) }),
  maxAttempts: 3,
  backoffBaseMs: 5000,
  async handler({ documentId }, ctx, deps) {
    const document = await documentEmbeddingState(deps.db, documentId);
    // Deleted, or its content replaced and embedded by a later job: nothing to do.
    if (document?.status !== 'pending' || !document.model) return { skipped: true };
    const model = document.model;
    const status = deps.embeddings?.status();
    const fail = async (message: string) => {
      await setDocumentEmbedding(deps.db, documentId, {
        embeddingStatus: 'failed',
        embeddingModel: model,
        embeddingError: message,
      });
    };
    if (!deps.embeddings || !status?.available || status.model !== model) {
      const why = `The embedding model ${model} is no longer configured on this server${status?.model ? ` (it has ${status.model})` : ''}.`;
      await fail(why);
      throw new NonRetryableJobError(why);
    }
    let embedded = 0;
    try {
      for (;;) {
        const rows = (await chunksWithoutEmbedding(deps.db, documentId)).slice(0, STEP);
        if (rows.length === 0) break;
        const vectors = await deps.embeddings.embed(
          rows.map((r) => r.content),
          { signal: ctx.signal },
        );
        await setChunkEmbeddings(
          deps.db,
          rows.map((r, i) => ({ id: r.id, embedding: vectors[i] as number[] })),
        );
        embedded += rows.length;
        const total = await countChunks(deps.db, documentId);
        if (total > 0) await ctx.progress(Math.min(1, embedded / total));
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final =
        ctx.attempt >= ctx.maxAttempts ||
        (error instanceof LlmError &&
          error.kind === 'upstream' &&
          error.upstreamStatus !== undefined &&
          error.upstreamStatus >= 400 &&
          error.upstreamStatus < 500 &&
          error.upstreamStatus !== 429);
      if (final) {
        await fail(message);
        throw new NonRetryableJobError(message);
      }
      // Retried: the status stays pending, the error is kept for the RAG status to show meanwhile.
      await setDocumentEmbedding(deps.db, documentId, {
        embeddingStatus: 'pending',
        embeddingModel: model,
        embeddingError: message,
      });
      throw error;
    }
    await setDocumentEmbedding(deps.db, documentId, {
      embeddingStatus: 'computed',
      embeddingModel: model,
      embeddingError: null,
    });
    return { embedded };
  },
});
