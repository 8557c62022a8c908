import {
  type CreateStudioProjectFields,
  findPremadeVoice,
  LIVE_MODERATION_STUDIO_MESSAGE,
  MAX_PRONUNCIATION_LOCATORS,
  PronunciationDictionaryLocator,
  type PronunciationRule,
  STUDIO_DEFAULT_MODEL_ID,
  STUDIO_DEFAULT_VOICE_ID,
  STUDIO_FALLBACK_MODEL_ID,
  STUDIO_MAX_CHAPTERS,
  type StudioBlockSubType,
  type StudioChapterContentInput,
  type StudioDictionariesBody,
  type SubscriptionTier,
  studioProjectLimitMessage,
  tierLimits,
  type UpdateStudioChapterBody,
  type UpdateStudioContentFields,
  type UpdateStudioProjectBody,
  VoiceSettings,
} from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import type { Db } from '../../platform/db/client';
import { AppError, invalid, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { ResolvedDictionaryVersion } from '../pronunciation-dictionaries';
import { getModel, resolveSpeakingVoice } from '../voices';
import { findWorkspaceWebhookAt } from '../webhooks';
import type { StudioDeps } from './studio.deps';
import { projectDictionaries, projectRules } from './studio.dictionaries';
import {
  chaptersFromContentJson,
  chaptersFromDocument,
  chaptersFromUrl,
  type ImportedChapter,
} from './studio.import';
import { convertJob } from './studio.jobs';
import { presentChapterWithContent, presentProject, presentProjectExtended } from './studio.present';
import { blockHash, projectFolder } from './studio.rules';
import {
  countProjects,
  deleteChapterRow,
  deleteProjectChapters,
  deleteProjectRow,
  findChapter,
  findProject,
  insertChapter,
  insertProject,
  listBlocks,
  listChapters,
  listProjects,
  replaceBlocks,
  updateChapter,
  updateChapters,
  updateProject,
  workspaceTierOf,
} from './studio.store';
import type { StoredLocator, StoredNode, StudioProjectRow } from './studio.tables';

/*
 * Studio projects (issue 30 item 2): projects, their chapters and blocks, their pronunciation
 * dictionaries, and the conversion jobs' start. Everything a request names is checked before anything is
 * stored: voices (live-moderation voices refused with history/voices §5's sentence), the model, the
 * dictionaries' locators, the imported document, and the plan's Studio limit (accounts §9).
 */

/** A document as uploaded. */
export interface StudioDocument {
  bytes: Buffer;
  filename: string;
  mimetype: string;
}

// ---- Checks -----------------------------------------------------------------------------------------------

/**
 * A voice Studio may use: one the workspace can speak with (premade or its own), never one with live
 * moderation on (history/voices §5: "Live moderation voices are not available in Studio").
 */
export async function checkStudioVoice(
  deps: StudioDeps,
  caller: RequestCaller,
  voiceId: string,
): Promise<void> {
  const voice = await resolveSpeakingVoice(deps.db, caller, voiceId);
  if (voice.liveModerationEnabled) throw new AppError('voice_unusable', LIVE_MODERATION_STUDIO_MESSAGE);
}

async function checkVoices(
  deps: StudioDeps,
  caller: RequestCaller,
  voiceIds: Iterable<string>,
): Promise<void> {
  for (const voiceId of new Set(voiceIds)) await checkStudioVoice(deps, caller, voiceId);
}

/** The model a project or block names, which must be one this server speaks with. */
function checkModel(deps: StudioDeps, modelId: string): string {
  getModel(modelId, { external: deps.tts.externalConfigured, store: deps.tts.models });
  return modelId;
}

/**
 * The model of a project made without `default_model_id`: the fast neural one (Piper; decision 25,
 * "Studio projects": the only neural model that reaches issue 30's 15× real time on 2 cores) when every
 * voice the project starts with speaks through it (the American men's premade voices) and it is installed
 * here; else text to speech's default model, which speaks every voice.
 */
function defaultModelFor(deps: StudioDeps, voiceIds: readonly string[]): string {
  if (!voiceIds.every((id) => findPremadeVoice(id)?.piper)) return STUDIO_FALLBACK_MODEL_ID;
  try {
    return checkModel(deps, STUDIO_DEFAULT_MODEL_ID);
  } catch (error) {
    if (error instanceof AppError) return STUDIO_FALLBACK_MODEL_ID;
    throw error;
  }
}

/**
 * The pronunciation-dictionary locators a project names, checked through the dictionaries' front door:
 * at most three, each an id with an optional version, each the workspace's (an unknown or another
 * workspace's dictionary or version is their 404 `pronunciation_dictionary_not_found`, before anything
 * is stored). Kept as given: a locator without a version follows the dictionary's latest.
 */
export async function validatePronunciationLocators(
  deps: StudioDeps,
  caller: RequestCaller,
  locators: unknown[],
  field = 'pronunciation_dictionary_locators',
): Promise<StoredLocator[]> {
  if (locators.length > MAX_PRONUNCIATION_LOCATORS)
    throw invalid(
      field,
      `A project may name at most ${MAX_PRONUNCIATION_LOCATORS} pronunciation dictionaries.`,
    );
  const stored = locators.map((locator) => {
    const parsed = PronunciationDictionaryLocator.safeParse(locator);
    if (!parsed.success)
      throw invalid(field, 'Each locator is {"pronunciation_dictionary_id": "…", "version_id": "…"}.');
    return {
      pronunciation_dictionary_id: parsed.data.pronunciation_dictionary_id,
      version_id: parsed.data.version_id ?? null,
    };
  });
  await projectDictionaries(deps, caller.workspaceId, stored, [field]);
  return stored;
}

/** A project's rules for presenting its blocks' state: a dictionary gone since is none (not a failure). */
async function presentableRules(deps: StudioDeps, project: StudioProjectRow): Promise<PronunciationRule[]> {
  try {
    return await projectRules(deps, project);
  } catch (error) {
    if (error instanceof AppError) return [];
    throw error;
  }
}

/** Per-voice settings of a create call (`voice_settings`, JSON strings with a `voice_id`), by voice. */
export function parseVoiceSettings(raw: string[]): Map<string, Partial<VoiceSettings>> {
  const byVoice = new Map<string, Partial<VoiceSettings>>();
  for (const text of raw) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw invalid('voice_settings', 'Each voice_settings entry must be a JSON object.');
    }
    const voiceId = (json as { voice_id?: unknown } | null)?.voice_id;
    const { voice_id: _voice, ...rest } = (json ?? {}) as Record<string, unknown>;
    const settings = VoiceSettings.safeParse(rest);
    if (typeof voiceId !== 'string' || !settings.success)
      throw invalid(
        'voice_settings',
        'Each voice_settings entry is {"voice_id": "…", "stability": …, "similarity_boost": …, "style": …, "speed": …, "use_speaker_boost": …}.',
      );
    byVoice.set(
      voiceId,
      Object.fromEntries(Object.entries(settings.data).filter(([, v]) => v !== null && v !== undefined)),
    );
  }
  return byVoice;
}

/** Multipart locators: each a JSON string (the SDK's repeated `pronunciation_dictionary_locators`). */
function parseLocatorStrings(raw: string[]): unknown[] {
  return raw.map((text) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw invalid('pronunciation_dictionary_locators', 'Each locator must be a JSON object.');
    }
  });
}

function checkCallbackUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('callback_url', 'callback_url is not a valid absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid('callback_url', 'callback_url must be an http or https URL.');
  return url.toString();
}

/** accounts §9: the Studio projects a workspace's plan allows (3, 20, 1,000, 3,000, 20,000, 20,000). */
async function assertProjectSlot(tx: Db, workspaceId: string): Promise<void> {
  const tier = (await workspaceTierOf(tx, workspaceId)) ?? 'free';
  const limit = tierLimits[tier as SubscriptionTier]?.studioProjects ?? tierLimits.free.studioProjects;
  if ((await countProjects(tx, workspaceId)) >= limit)
    throw new AppError('studio_project_limit_reached', studioProjectLimitMessage(limit));
}

// ---- Content ----------------------------------------------------------------------------------------------

/** The content a create or content call brings (one source at most), read before anything is stored. */
async function importContent(
  deps: StudioDeps,
  input: { fromUrl?: string | undefined; fromContentJson?: string | undefined; document?: StudioDocument },
  signal?: AbortSignal,
): Promise<{ chapters: ImportedChapter[]; title?: string | undefined } | undefined> {
  const sources = [input.fromUrl, input.fromContentJson, input.document].filter((s) => s !== undefined);
  if (sources.length > 1)
    throw invalid('from_document', 'Give one of from_document, from_url and from_content_json, not several.');
  if (input.document)
    return chaptersFromDocument(input.document.bytes, input.document.filename, input.document.mimetype);
  if (input.fromUrl) return chaptersFromUrl(input.fromUrl, deps.urlPolicy, signal);
  if (input.fromContentJson) return { chapters: chaptersFromContentJson(input.fromContentJson) };
  return undefined;
}

/** A block's nodes with every voice filled (a heading in the title voice, the rest in the paragraph voice). */
function nodesOf(
  project: Pick<StudioProjectRow, 'defaultTitleVoiceId' | 'defaultParagraphVoiceId'>,
  subType: StudioBlockSubType,
  nodes: { text: string; voiceId: string | null }[],
): StoredNode[] {
  const fallback = subType === 'p' ? project.defaultParagraphVoiceId : project.defaultTitleVoiceId;
  return nodes.map((n) => ({ text: n.text, voice_id: n.voiceId ?? fallback }));
}

/** Writes imported chapters after `position` (their blocks with them). */
async function storeChapters(
  tx: Db,
  project: StudioProjectRow,
  chapters: ImportedChapter[],
  firstPosition: number,
  nowMs: number,
  /** Settings per voice (the create call's voice_settings): a block takes those of its first node's voice. */
  settings: Map<string, Partial<VoiceSettings>> = new Map(),
): Promise<void> {
  for (const [i, chapter] of chapters.entries()) {
    const row = await insertChapter(tx, {
      id: newId(),
      projectId: project.id,
      workspaceId: project.workspaceId,
      position: firstPosition + i,
      name: chapter.name,
      lastBlockIdsOrderChangeMs: nowMs,
    });
    await replaceBlocks(
      tx,
      row.id,
      chapter.blocks.map((block, position) => {
        const nodes = nodesOf(project, block.subType, block.nodes);
        return {
          id: newId(),
          chapterId: row.id,
          projectId: project.id,
          position,
          subType: block.subType,
          nodes,
          voiceSettings: settings.get(nodes[0]?.voice_id ?? '') ?? null,
        };
      }),
    );
  }
}

const contentVoices = (chapters: ImportedChapter[]) =>
  chapters.flatMap((c) => c.blocks.flatMap((b) => b.nodes.flatMap((n) => (n.voiceId ? [n.voiceId] : []))));

// ---- Projects ---------------------------------------------------------------------------------------------

export async function createProject(
  deps: StudioDeps,
  caller: RequestCaller,
  input: { fields: CreateStudioProjectFields; document?: StudioDocument | undefined },
  signal?: AbortSignal,
) {
  const f = input.fields;
  const titleVoice = f.default_title_voice_id ?? STUDIO_DEFAULT_VOICE_ID;
  const paragraphVoice = f.default_paragraph_voice_id ?? STUDIO_DEFAULT_VOICE_ID;
  const modelId = f.default_model_id ? checkModel(deps, f.default_model_id) : undefined;
  const locators = await validatePronunciationLocators(
    deps,
    caller,
    parseLocatorStrings(f.pronunciation_dictionary_locators ?? []),
  );
  const voiceSettings = parseVoiceSettings(f.voice_settings ?? []);
  const callbackUrl = checkCallbackUrl(f.callback_url);
  // The notification is a workspace webhook's delivery: signed with its secret, retried and logged.
  if (callbackUrl && !(await findWorkspaceWebhookAt(deps, caller.workspaceId, callbackUrl)))
    throw invalid(
      'callback_url',
      "callback_url must be the address of one of your workspace's webhooks (add it under Settings → Webhooks): the notification is signed with that webhook's secret.",
    );
  // The plan's limit before a document is read (a refusal costs no parsing), and again when stored.
  await assertProjectSlot(deps.db, caller.workspaceId);
  const content = await importContent(
    deps,
    { fromUrl: f.from_url || undefined, fromContentJson: f.from_content_json, document: input.document },
    signal,
  );
  const voiceIds = [titleVoice, paragraphVoice, ...contentVoices(content?.chapters ?? [])];
  await checkVoices(deps, caller, voiceIds);
  const now = deps.clock.now();
  const project = await deps.db.transaction(async (tx) => {
    await assertProjectSlot(tx, caller.workspaceId);
    const row = await insertProject(tx, {
      id: newId(),
      workspaceId: caller.workspaceId,
      userId: caller.userId || null,
      name: f.name,
      defaultTitleVoiceId: titleVoice,
      defaultParagraphVoiceId: paragraphVoice,
      defaultModelId: modelId ?? defaultModelFor(deps, voiceIds),
      qualityPreset: f.quality_preset ?? 'standard',
      title: f.title ?? null,
      author: f.author ?? null,
      isbnNumber: f.isbn_number ?? null,
      description: f.description ?? '',
      genres: f.genres ?? [],
      language: f.language ?? null,
      contentType: f.content_type ?? null,
      originalPublicationDate: f.original_publication_date ?? null,
      targetAudience: f.target_audience ?? 'all ages',
      matureContent: f.mature_content ?? false,
      fiction: f.fiction ?? null,
      acxVolumeNormalization: f.acx_volume_normalization ?? false,
      volumeNormalization: f.volume_normalization ?? false,
      applyTextNormalization: f.apply_text_normalization ?? 'auto',
      sourceType: f.source_type ?? (content ? 'book' : 'blank'),
      callbackUrl,
      pronunciationDictionaryLocators: locators,
      lastChaptersOrderChangeMs: now.getTime(),
      createdAt: now,
    });
    await storeChapters(tx, row, content?.chapters ?? [], 0, now.getTime(), voiceSettings);
    return row;
  });
  if (f.auto_convert) await startConversion(deps, caller, project.id, null);
  const fresh = (await findProject(deps.db, caller.workspaceId, project.id)) ?? project;
  return {
    project: presentProject(
      fresh,
      (await listChapters(deps.db, project.id)).map((c) => c.id),
    ),
  };
}

async function requireProject(deps: StudioDeps, caller: RequestCaller, projectId: string) {
  const project = await findProject(deps.db, caller.workspaceId, projectId);
  if (!project) throw notFound('The project');
  return project;
}

/** A project's content can change only while no conversion reads it. */
function assertNotConverting(project: StudioProjectRow): void {
  if (project.state === 'converting')
    throw new AppError(
      'conflict',
      'The project is being converted; try again when the conversion has finished.',
    );
}

/**
 * The check that counts, inside the transaction that changes the content: the project's row locked
 * (`FOR UPDATE`, as startConversion locks it), so a conversion cannot start between the check and the
 * change — the two serialise, and the later one sees the other's outcome. The check made before the
 * content was read only spares that work when the project is already converting.
 */
async function lockNotConverting(tx: Db, workspaceId: string, projectId: string): Promise<void> {
  const project = await findProject(tx, workspaceId, projectId, true);
  if (!project) throw notFound('The project');
  assertNotConverting(project);
}

export async function listStudioProjects(deps: StudioDeps, caller: RequestCaller) {
  const rows = await listProjects(deps.db, caller.workspaceId);
  const projects = [];
  for (const row of rows)
    projects.push(
      presentProject(
        row,
        (await listChapters(deps.db, row.id)).map((c) => c.id),
      ),
    );
  return { projects };
}

export async function getStudioProject(deps: StudioDeps, caller: RequestCaller, projectId: string) {
  const project = await requireProject(deps, caller, projectId);
  const chapters = [];
  for (const row of await listChapters(deps.db, project.id))
    chapters.push({ row, blocks: await listBlocks(deps.db, row.id) });
  let versions: ResolvedDictionaryVersion[] = [];
  try {
    versions = await projectDictionaries(deps, project.workspaceId, project.pronunciationDictionaryLocators);
  } catch (error) {
    // A dictionary deleted since it was set: the project still reads (its conversion will say why it fails).
    if (!(error instanceof AppError)) throw error;
  }
  return presentProjectExtended(project, chapters, versions);
}

export async function updateStudioProject(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  body: UpdateStudioProjectBody,
) {
  await requireProject(deps, caller, projectId);
  await checkVoices(deps, caller, [body.default_title_voice_id, body.default_paragraph_voice_id]);
  const row = await updateProject(deps.db, projectId, {
    name: body.name,
    defaultTitleVoiceId: body.default_title_voice_id,
    defaultParagraphVoiceId: body.default_paragraph_voice_id,
    ...(body.title !== undefined ? { title: body.title } : {}),
    ...(body.author !== undefined ? { author: body.author } : {}),
    ...(body.isbn_number !== undefined ? { isbnNumber: body.isbn_number } : {}),
    ...(typeof body.volume_normalization === 'boolean'
      ? { volumeNormalization: body.volume_normalization }
      : {}),
  });
  if (!row) throw notFound('The project');
  return {
    project: presentProject(
      row,
      (await listChapters(deps.db, row.id)).map((c) => c.id),
    ),
  };
}

export async function deleteStudioProject(deps: StudioDeps, caller: RequestCaller, projectId: string) {
  if (!(await deleteProjectRow(deps.db, caller.workspaceId, projectId))) throw notFound('The project');
  // The rows are gone first (nothing can reach the files any more); then the files.
  await removeFiles(deps, projectFolder(caller.workspaceId, projectId));
  return { status: 'ok' as const };
}

export async function removeFiles(deps: Pick<StudioDeps, 'storage'>, prefix: string): Promise<void> {
  for (const key of await deps.storage.list(prefix)) await deps.storage.delete(key);
}

/** `POST …/content`: the project's chapters replaced by the content given. */
export async function updateStudioContent(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  input: { fields: UpdateStudioContentFields; document?: StudioDocument | undefined },
  signal?: AbortSignal,
) {
  const project = await requireProject(deps, caller, projectId);
  assertNotConverting(project);
  const content = await importContent(
    deps,
    {
      fromUrl: input.fields.from_url || undefined,
      fromContentJson: input.fields.from_content_json,
      document: input.document,
    },
    signal,
  );
  if (!content)
    throw invalid('from_document', 'Give the new content: from_document, from_url or from_content_json.');
  await checkVoices(deps, caller, contentVoices(content.chapters));
  const now = deps.clock.now().getTime();
  await deps.db.transaction(async (tx) => {
    await lockNotConverting(tx, caller.workspaceId, project.id);
    await deleteProjectChapters(tx, project.id);
    await storeChapters(tx, project, content.chapters, 0, now);
    await updateProject(tx, project.id, { lastChaptersOrderChangeMs: now });
  });
  if (input.fields.auto_convert) await startConversion(deps, caller, project.id, null);
  const fresh = (await findProject(deps.db, caller.workspaceId, project.id)) ?? project;
  return {
    project: presentProject(
      fresh,
      (await listChapters(deps.db, project.id)).map((c) => c.id),
    ),
  };
}

export async function setStudioDictionaries(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  body: StudioDictionariesBody,
) {
  await requireProject(deps, caller, projectId);
  const locators = await validatePronunciationLocators(deps, caller, body.pronunciation_dictionary_locators);
  await updateProject(deps.db, projectId, { pronunciationDictionaryLocators: locators });
  return { status: 'ok' as const };
}

// ---- Chapters ---------------------------------------------------------------------------------------------

async function requireChapter(deps: StudioDeps, caller: RequestCaller, projectId: string, chapterId: string) {
  const project = await requireProject(deps, caller, projectId);
  const chapter = await findChapter(deps.db, project.id, chapterId);
  if (!chapter) throw notFound('The chapter');
  return { project, chapter };
}

export async function listStudioChapters(deps: StudioDeps, caller: RequestCaller, projectId: string) {
  const project = await requireProject(deps, caller, projectId);
  const chapters = [];
  for (const row of await listChapters(deps.db, project.id))
    chapters.push(presentChapterWithContent(row, await listBlocks(deps.db, row.id)));
  // The list answers chapters without their content.
  return { chapters: chapters.map(({ content: _content, ...chapter }) => chapter) };
}

export async function getStudioChapter(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterId: string,
) {
  const { project, chapter } = await requireChapter(deps, caller, projectId, chapterId);
  const blocks = await listBlocks(deps.db, chapter.id);
  const rules = await presentableRules(deps, project);
  return presentChapterWithContent(chapter, blocks, (b) => blockHash(project, b, rules));
}

export async function createStudioChapter(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  body: { name: string; from_url?: string | null | undefined },
  signal?: AbortSignal,
) {
  const project = await requireProject(deps, caller, projectId);
  const existing = await listChapters(deps.db, project.id);
  if (existing.length >= STUDIO_MAX_CHAPTERS)
    throw invalid('name', `A project holds at most ${STUDIO_MAX_CHAPTERS} chapters.`);
  const imported = body.from_url ? await chaptersFromUrl(body.from_url, deps.urlPolicy, signal) : undefined;
  const blocks = imported?.chapters.flatMap((c) => c.blocks) ?? [];
  const now = deps.clock.now().getTime();
  const id = await deps.db.transaction(async (tx) => {
    const position = (existing.at(-1)?.position ?? -1) + 1;
    await storeChapters(tx, project, [{ name: body.name, blocks }], position, now);
    await updateProject(tx, project.id, { lastChaptersOrderChangeMs: now });
    const [made] = (await listChapters(tx, project.id)).filter((c) => c.position === position);
    return made?.id as string;
  });
  const chapter = await findChapter(deps.db, project.id, id);
  if (!chapter) throw notFound('The chapter');
  return { chapter: presentChapterWithContent(chapter, await listBlocks(deps.db, id)) };
}

/**
 * `POST …/chapters/{id}`: a new name, and the blocks replaced by those given. A block sent with the id of
 * one of this chapter's blocks is that block (it keeps its model, settings and converted audio while its
 * content is unchanged); any other is a new block.
 */
export async function updateStudioChapter(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterId: string,
  body: UpdateStudioChapterBody,
) {
  const { project, chapter } = await requireChapter(deps, caller, projectId, chapterId);
  if (body.content) {
    assertNotConverting(project);
    await checkVoices(
      deps,
      caller,
      body.content.blocks.flatMap((b) => b.nodes.map((n) => n.voice_id)),
    );
  }
  const now = deps.clock.now().getTime();
  await deps.db.transaction(async (tx) => {
    if (body.content) await lockNotConverting(tx, caller.workspaceId, project.id);
    if (body.name) await updateChapter(tx, chapter.id, { name: body.name });
    if (body.content) await replaceChapterContent(tx, project, chapter.id, body.content, now);
  });
  const fresh = (await findChapter(deps.db, project.id, chapter.id)) ?? chapter;
  const blocks = await listBlocks(deps.db, chapter.id);
  const rules = await presentableRules(deps, project);
  return { chapter: presentChapterWithContent(fresh, blocks, (b) => blockHash(project, b, rules)) };
}

async function replaceChapterContent(
  tx: Db,
  project: StudioProjectRow,
  chapterId: string,
  content: StudioChapterContentInput,
  nowMs: number,
): Promise<void> {
  const before = await listBlocks(tx, chapterId);
  const kept = new Map(before.map((b) => [b.id, b]));
  const used = new Set<string>();
  const rows = content.blocks
    .filter((block) => block.nodes.some((n) => n.text.trim()))
    .map((block, position) => {
      const old = block.block_id && !used.has(block.block_id) ? kept.get(block.block_id) : undefined;
      if (old) used.add(old.id);
      const subType = block.sub_type ?? old?.subType ?? 'p';
      return {
        id: old?.id ?? newId(),
        chapterId,
        projectId: project.id,
        position,
        subType,
        nodes: block.nodes.filter((n) => n.text.trim()).map((n) => ({ text: n.text, voice_id: n.voice_id })),
        modelId: old?.modelId ?? null,
        voiceSettings: old?.voiceSettings ?? null,
        convertedHash: old?.convertedHash ?? null,
      };
    });
  await replaceBlocks(tx, chapterId, rows);
  const order = (ids: string[]) => ids.join(',');
  if (order(before.map((b) => b.id)) !== order(rows.map((r) => r.id)))
    await updateChapter(tx, chapterId, { lastBlockIdsOrderChangeMs: nowMs });
}

export async function deleteStudioChapter(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterId: string,
) {
  const { project } = await requireChapter(deps, caller, projectId, chapterId);
  assertNotConverting(project);
  await deps.db.transaction(async (tx) => {
    await lockNotConverting(tx, caller.workspaceId, project.id);
    await deleteChapterRow(tx, project.id, chapterId);
    await updateProject(tx, project.id, { lastChaptersOrderChangeMs: deps.clock.now().getTime() });
  });
  return { status: 'ok' as const };
}

// ---- Conversion -------------------------------------------------------------------------------------------

/**
 * Starts converting a project (`chapterIds` null: every chapter) as a job: the project's state goes
 * default → converting, each chapter's to converting with its progress at 0. One conversion at a time.
 */
export async function startConversion(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterIds: string[] | null,
): Promise<{ status: 'ok' }> {
  await deps.db.transaction(async (tx) => {
    const project = await findProject(tx, caller.workspaceId, projectId, true);
    if (!project) throw notFound('The project');
    assertNotConverting(project);
    const chapters = await listChapters(tx, project.id);
    const ids = chapterIds ?? chapters.map((c) => c.id);
    if (chapterIds && !chapters.some((c) => chapterIds.includes(c.id))) throw notFound('The chapter');
    if (ids.length === 0) throw invalid('project_id', 'The project has no chapters to convert.');
    for (const voiceId of new Set(
      (await Promise.all(ids.map((id) => listBlocks(tx, id))))
        .flat()
        .flatMap((b) => b.nodes.map((n) => n.voice_id)),
    ))
      await checkStudioVoice({ ...deps, db: tx }, caller, voiceId);
    await updateProject(tx, project.id, { state: 'converting', convertingChapterIds: ids });
    await updateChapters(tx, ids, { state: 'converting', conversionProgress: 0, lastConversionError: null });
    await deps.queue.enqueueIn(
      tx,
      convertJob,
      {
        projectId: project.id,
        workspaceId: caller.workspaceId,
        chapterIds: ids,
        scope: chapterIds ? 'chapter' : 'project',
        userId: caller.userId,
        apiKeyId: caller.apiKeyId ?? null,
        requestId: caller.requestId,
      },
      { workspaceId: caller.workspaceId },
    );
  });
  deps.queue.onEnqueued?.();
  return { status: 'ok' };
}

export async function convertStudioChapter(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  chapterId: string,
) {
  await requireChapter(deps, caller, projectId, chapterId);
  return startConversion(deps, caller, projectId, [chapterId]);
}
