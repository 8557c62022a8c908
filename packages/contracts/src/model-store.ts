import { z } from 'zod';
import { defineRoute } from './routes';

/**
 * The model store's state as the models page and operators read it (issue 27 item 1): each model of the
 * server's catalogue (`apps/server/src/platform/models/model-catalogue.ts`) with the feature that needs
 * it, whether its files are there, whole and unaltered, why not, its size, its licence and where it comes
 * from.
 */
export const StoredModel = z
  .object({
    /** The store's id of the model (`kokoro-82m`, `moonshine-tiny`…), not a speech model id. */
    id: z.string(),
    name: z.string(),
    /** What in Parla needs it. */
    feature: z.string(),
    available: z.boolean(),
    /** Why it is unavailable (missing file, partial download, wrong size, checksum mismatch); null when available. */
    reason: z.string().nullable(),
    size_bytes: z.number().int(),
    file_count: z.number().int(),
    licence: z.object({ spdx: z.string(), attribution: z.string() }),
    /** The registry packages its files come from, each pinned by version (and SHA-256 in the catalogue). */
    sources: z.array(
      z.object({ kind: z.enum(['npm', 'pypi', 'deb']), name: z.string(), version: z.string() }),
    ),
    upstream: z.string(),
  })
  .meta({ id: 'StoredModel' });
export type StoredModel = z.infer<typeof StoredModel>;

export const ModelStoreResponse = z
  .object({ models: z.array(StoredModel) })
  .meta({ id: 'ModelStoreResponse' });
export type ModelStoreResponse = z.infer<typeof ModelStoreResponse>;

/** Public, like `/health` and `/licenses`: which models this installation has and under which licences. */
export const listModelStoreRoute = defineRoute({
  method: 'GET',
  path: '/v1/model-store',
  summary: 'The model store: every model file set, whether it is available (or why not) and its licence',
  tags: ['models'],
  response: ModelStoreResponse,
});
