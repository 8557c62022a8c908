import {
  AddDictionaryFromFileFields,
  addDictionaryFromFileRoute,
  addDictionaryFromRulesRoute,
  addDictionaryRulesRoute,
  downloadDictionaryVersionRoute,
  getDictionaryRoute,
  getWorkspaceDictionariesRoute,
  listDictionariesRoute,
  MAX_PLS_BYTES,
  removeDictionaryRulesRoute,
  setDictionaryRulesRoute,
  setWorkspaceDictionariesRoute,
  updateDictionaryRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { acceptMultipart, readMultipartForm } from '../../platform/multipart';
import { registerRoute } from '../../platform/route';
import { writeLexicon } from './pls';
import { toAddResponse, toMetadata, toRulesResponse } from './pronunciation-dictionaries.present';
import {
  addRules,
  createFromFile,
  createFromRules,
  type DictionaryDeps,
  defaultLocators,
  dictionaryWithRules,
  listDictionaries,
  removeRules,
  requireVersion,
  setDefaultLocators,
  setRules,
  updateDictionary,
} from './pronunciation-dictionaries.service';

/** What the dictionaries' use cases need, from the app's. */
export function dictionaryDepsOf(deps: Pick<AppDeps, 'database'>): DictionaryDeps {
  return { db: deps.database.db };
}

/**
 * `/v1/pronunciation-dictionaries…` (issue 30), every call of the SDK's `pronunciationDictionaries`, and
 * Parla's `/v1/workspace/pronunciation-dictionaries` (the workspace's default list).
 */
export async function pronunciationDictionaryRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // A lexicon past the limit breaks the upload with a 413 as it streams in: nothing is read past it.
  await acceptMultipart(app, MAX_PLS_BYTES);
  const dictionaries = dictionaryDepsOf(deps);
  const guarded = { onRequest: deps.auth.requireAuth };

  registerRoute(
    app,
    addDictionaryFromFileRoute,
    async ({ request }) => {
      const caller = callerOf(request);
      const form = await readMultipartForm(request, 'file', AddDictionaryFromFileFields);
      const row = await createFromFile(dictionaries, caller, {
        file: form.file,
        name: form.fields.name,
        description: form.fields.description,
        workspaceAccess: form.fields.workspace_access,
      });
      return toAddResponse(row, caller.userId);
    },
    guarded,
  );
  registerRoute(
    app,
    addDictionaryFromRulesRoute,
    async ({ request, body }) => {
      const caller = callerOf(request);
      return toAddResponse(await createFromRules(dictionaries, caller, body), caller.userId);
    },
    guarded,
  );
  registerRoute(
    app,
    listDictionariesRoute,
    async ({ request, query }) => {
      const caller = callerOf(request);
      const page = await listDictionaries(dictionaries, caller, query);
      return {
        pronunciation_dictionaries: page.rows.map((row) => toMetadata(row, caller.userId)),
        next_cursor: page.nextCursor,
        has_more: page.hasMore,
      };
    },
    guarded,
  );
  registerRoute(
    app,
    getDictionaryRoute,
    async ({ request, params }) => {
      const caller = callerOf(request);
      const { row, rules } = await dictionaryWithRules(
        dictionaries,
        caller,
        params.pronunciation_dictionary_id,
      );
      return { ...toMetadata(row, caller.userId), rules };
    },
    guarded,
  );
  registerRoute(
    app,
    updateDictionaryRoute,
    async ({ request, params, body }) => {
      const caller = callerOf(request);
      const row = await updateDictionary(dictionaries, caller, params.pronunciation_dictionary_id, body);
      return toMetadata(row, caller.userId);
    },
    guarded,
  );
  registerRoute(
    app,
    addDictionaryRulesRoute,
    async ({ request, params, body }) =>
      toRulesResponse(
        await addRules(dictionaries, callerOf(request), params.pronunciation_dictionary_id, body.rules),
      ),
    guarded,
  );
  registerRoute(
    app,
    removeDictionaryRulesRoute,
    async ({ request, params, body }) =>
      toRulesResponse(
        await removeRules(
          dictionaries,
          callerOf(request),
          params.pronunciation_dictionary_id,
          body.rule_strings,
        ),
      ),
    guarded,
  );
  registerRoute(
    app,
    setDictionaryRulesRoute,
    async ({ request, params, body }) =>
      toRulesResponse(
        await setRules(dictionaries, callerOf(request), params.pronunciation_dictionary_id, body.rules),
      ),
    guarded,
  );
  registerRoute(
    app,
    downloadDictionaryVersionRoute,
    async ({ request, reply, params }) => {
      const version = await requireVersion(
        dictionaries,
        callerOf(request),
        params.pronunciation_dictionary_id,
        params.version_id,
      );
      reply.header('content-type', 'application/pls+xml; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${version.dictionaryId}_${version.id}.pls"`);
      return writeLexicon(version.rules);
    },
    guarded,
  );
  registerRoute(
    app,
    getWorkspaceDictionariesRoute,
    async ({ request }) => ({
      pronunciation_dictionary_locators: await defaultLocators(dictionaries, callerOf(request)),
    }),
    guarded,
  );
  registerRoute(
    app,
    setWorkspaceDictionariesRoute,
    async ({ request, body }) => ({
      pronunciation_dictionary_locators: await setDefaultLocators(
        dictionaries,
        callerOf(request),
        body.pronunciation_dictionary_locators,
      ),
    }),
    guarded,
  );
}
