import {
  AUDIO_NATIVE_DEFAULT_BACKGROUND_COLOR,
  AUDIO_NATIVE_DEFAULT_SESSIONIZATION_MINUTES,
  AUDIO_NATIVE_DEFAULT_TEXT_COLOR,
  AUDIO_NATIVE_MAX_EVENT_BYTES,
  type AudioNativeAnalytics,
  AudioNativeEvent,
  type AudioNativePlayerConfig,
  type AudioNativeProject,
  type AudioNativeSettings,
  type CreateAudioNativeFields,
  type CreateStudioProjectFields,
  STUDIO_DEFAULT_MODEL_ID,
  STUDIO_DEFAULT_VOICE_ID,
  type UpdateAudioNativeContentFields,
  type UpdateAudioNativeFromUrlBody,
  type UpdateAudioNativeSettingsBody,
} from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError, invalid, notFound } from '../../platform/errors';
import {
  createStudioProject,
  getStudioProject,
  joinStudioMp3,
  type StudioDocument,
  type StudioSnapshotAudio,
  startStudioConversion,
  studioProjectFolder,
  studioSnapshotAudio,
  updateStudioContent,
  updateStudioProject,
} from '../studio';
import type { AudioNativeDeps } from './audio-native.deps';
import {
  dailyAnalytics,
  findAudioNative,
  findAudioNativeById,
  findAudioNativeByPage,
  insertAudioNative,
  listAudioNatives,
  mostLoadedPage,
  recordBeacon,
  recordPageLoad,
  setReportedPage,
  totalAnalytics,
  updateAudioNative,
} from './audio-native.store';
import type { AudioNativeProjectRow } from './audio-native.tables';

/*
 * Audio Native (issue 30 item 4; history/voices §7 "audio-native stats and settings, publish and embed
 * code"): a Studio project (its id is the public API's project_id; Studio converts and charges it) plus
 * the embeddable player's settings, the origins that may embed it, what is published, and its analytics.
 * Every field a call names is checked before Studio stores anything, so bad input stores nothing.
 */

// ---- Shapes ------------------------------------------------------------------------------------------------

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The embed code (history/voices §7 "publish and embed code"): an element the script fills, with the
 * settings known now so the player draws at once (its config fetched after refreshes them), and the script.
 */
export function htmlSnippet(deps: Pick<AudioNativeDeps, 'publicUrl'>, row: AudioNativeProjectRow): string {
  const data: [string, string][] = [
    ['project-id', row.projectId],
    ['title', row.title],
    ['author', row.author],
    ['small', String(row.small)],
    ['text-color', row.textColor],
    ['background-color', row.backgroundColor],
  ];
  const attributes = data.map(([k, v]) => `data-${k}="${escapeAttribute(v)}"`).join(' ');
  return `<div class="parla-audio-native" ${attributes}></div>\n<script src="${escapeAttribute(deps.publicUrl)}/audio-native.js" async></script>`;
}

const audioPath = (projectId: string, snapshotId: string) =>
  `/v1/audio-native/${encodeURIComponent(projectId)}/audio?v=${encodeURIComponent(snapshotId)}`;

/** The snapshot the player plays: each new one while auto_publish is on, else the one pinned. */
function publishedSnapshotId(row: AudioNativeProjectRow, audio: StudioSnapshotAudio | undefined) {
  return row.autoPublish ? (audio?.latestSnapshotId ?? null) : row.publishedSnapshotId;
}

async function audioOf(deps: AudioNativeDeps, row: AudioNativeProjectRow) {
  const latest = await studioSnapshotAudio(deps.studio, row.workspaceId, row.projectId, null);
  const published = publishedSnapshotId(row, latest);
  if (!latest || !published) return { studio: latest, snapshot: undefined };
  const audio =
    published === latest.latestSnapshotId
      ? latest
      : await studioSnapshotAudio(deps.studio, row.workspaceId, row.projectId, published);
  return { studio: latest, snapshot: audio?.snapshot };
}

function settingsOf(
  deps: AudioNativeDeps,
  row: AudioNativeProjectRow,
  snapshot: { id: string } | undefined,
): AudioNativeSettings {
  return {
    title: row.title,
    image: row.image,
    author: row.author,
    small: row.small,
    text_color: row.textColor,
    background_color: row.backgroundColor,
    sessionization: row.sessionizationMinutes,
    ...(snapshot
      ? {
          audio_path: audioPath(row.projectId, snapshot.id),
          audio_url: `${deps.publicUrl}${audioPath(row.projectId, snapshot.id)}`,
        }
      : {}),
    status: snapshot ? 'ready' : 'processing',
  };
}

async function present(deps: AudioNativeDeps, row: AudioNativeProjectRow): Promise<AudioNativeProject> {
  const { studio, snapshot } = await audioOf(deps, row);
  const project = await studioProjectOf(deps, row);
  return {
    project_id: row.projectId,
    name: project.name,
    enabled: row.enabled,
    status: snapshot ? 'ready' : 'processing',
    state: studio?.state ?? 'default',
    voice_id: project.voiceId,
    model_id: project.modelId,
    settings: settingsOf(deps, row, snapshot),
    allowed_origins: row.allowedOrigins,
    page_url: row.pageUrl,
    auto_publish: row.autoPublish,
    published_snapshot_id: snapshot?.id ?? null,
    duration_secs: snapshot?.durationSecs ?? null,
    html_snippet: htmlSnippet(deps, row),
    created_at_unix: Math.floor(row.createdAt.getTime() / 1000),
  };
}

async function studioProjectOf(deps: AudioNativeDeps, row: AudioNativeProjectRow) {
  const caller = { userId: '', workspaceId: row.workspaceId, requestId: '' };
  const project = await getStudioProject(deps.studio, caller, row.projectId);
  return {
    name: project.name,
    voiceId: project.default_paragraph_voice_id,
    modelId: project.default_model_id,
  };
}

// ---- Checks ------------------------------------------------------------------------------------------------

/** `image`: empty, or an http(s) address the player shows (never markup). */
function checkImage(raw: string | undefined): string {
  if (!raw) return '';
  try {
    const url = new URL(raw);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.toString();
  } catch {
    // Refused below.
  }
  throw invalid('image', 'image must be an http or https URL of the cover picture.');
}

/** A page as projects are found by it: origin and path (no query, no fragment). */
export function pageKey(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

async function requireRow(deps: AudioNativeDeps, caller: RequestCaller, projectId: string) {
  const row = await findAudioNative(deps.db, caller.workspaceId, projectId);
  if (!row) throw notFound('The Audio Native project');
  return row;
}

// ---- The public API (the SDK's audioNative) --------------------------------------------------------------

/** `POST /v1/audio-native`: a Studio project from the article, its player, and (auto_convert) its conversion. */
export async function createAudioNative(
  deps: AudioNativeDeps,
  caller: RequestCaller,
  fields: CreateAudioNativeFields,
  file: StudioDocument | undefined,
  signal?: AbortSignal,
) {
  const image = checkImage(fields.image);
  if (fields.auto_convert && !file)
    throw invalid(
      'file',
      'auto_convert needs the article: send it as `file` (text, HTML, Markdown, PDF, DOCX or EPUB).',
    );
  const voice = fields.voice_id ?? STUDIO_DEFAULT_VOICE_ID;
  const studioFields: CreateStudioProjectFields = {
    name: fields.name,
    default_title_voice_id: voice,
    default_paragraph_voice_id: voice,
    default_model_id: fields.model_id ?? STUDIO_DEFAULT_MODEL_ID,
    source_type: 'article',
    ...(fields.title !== undefined ? { title: fields.title } : {}),
    ...(fields.author !== undefined ? { author: fields.author } : {}),
    ...(fields.apply_text_normalization ? { apply_text_normalization: fields.apply_text_normalization } : {}),
    ...(fields.pronunciation_dictionary_locators
      ? { pronunciation_dictionary_locators: fields.pronunciation_dictionary_locators }
      : {}),
  };
  // Studio checks the voice, model, locators, the plan's project limit and the document before it stores.
  const { project } = await createStudioProject(
    deps.studio,
    caller,
    { fields: studioFields, document: file },
    signal,
  );
  const row = await insertAudioNative(deps.db, {
    projectId: project.project_id,
    workspaceId: caller.workspaceId,
    title: fields.title ?? fields.name,
    author: fields.author ?? '',
    image,
    small: fields.small ?? false,
    textColor: fields.text_color ?? AUDIO_NATIVE_DEFAULT_TEXT_COLOR,
    backgroundColor: fields.background_color ?? AUDIO_NATIVE_DEFAULT_BACKGROUND_COLOR,
    sessionizationMinutes: fields.sessionization ?? AUDIO_NATIVE_DEFAULT_SESSIONIZATION_MINUTES,
    createdAt: deps.clock.now(),
  });
  // Conversion is Studio's job (charged as Studio conversion is).
  if (fields.auto_convert) await startStudioConversion(deps.studio, caller, row.projectId, null);
  return {
    project_id: row.projectId,
    converting: fields.auto_convert ?? false,
    html_snippet: htmlSnippet(deps, row),
  };
}

export async function getAudioNativeSettings(
  deps: AudioNativeDeps,
  caller: RequestCaller,
  projectId: string,
) {
  const row = await requireRow(deps, caller, projectId);
  const { snapshot } = await audioOf(deps, row);
  return {
    enabled: row.enabled,
    ...(snapshot ? { snapshot_id: snapshot.id } : {}),
    settings: settingsOf(deps, row, snapshot),
  };
}

/**
 * `auto_publish`: true publishes each new snapshot as it is made; false keeps what is published now
 * until the pages publish again (the new content converts meanwhile).
 */
async function applyPublishing(
  deps: AudioNativeDeps,
  row: AudioNativeProjectRow,
  autoPublish: boolean | undefined,
) {
  if (autoPublish === undefined || autoPublish === row.autoPublish) return row;
  if (autoPublish) return (await updateAudioNative(deps.db, row.projectId, { autoPublish: true })) ?? row;
  const { snapshot } = await audioOf(deps, row);
  return (
    (await updateAudioNative(deps.db, row.projectId, {
      autoPublish: false,
      publishedSnapshotId: snapshot?.id ?? null,
    })) ?? row
  );
}

/** `POST /v1/audio-native/{project_id}/content`: the article replaced by a new file. */
export async function updateAudioNativeContent(
  deps: AudioNativeDeps,
  caller: RequestCaller,
  projectId: string,
  fields: UpdateAudioNativeContentFields,
  file: StudioDocument | undefined,
  signal?: AbortSignal,
) {
  const found = await requireRow(deps, caller, projectId);
  if (!file) throw invalid('file', 'Send the new article as `file`.');
  const row = await applyPublishing(deps, found, fields.auto_publish);
  await updateStudioContent(
    deps.studio,
    caller,
    projectId,
    { fields: { auto_convert: fields.auto_convert ?? false }, document: file },
    signal,
  );
  return {
    project_id: row.projectId,
    converting: fields.auto_convert ?? false,
    publishing: row.autoPublish,
    html_snippet: htmlSnippet(deps, row),
  };
}

/**
 * `POST /v1/audio-native/content`: the workspace's project embedded on `url` (the page its player first
 * reported, or the one its settings name) gets that page's text, fetched as Studio's from_url fetches
 * (operator-allowed hosts, no private addresses), converted and published.
 */
export async function updateAudioNativeFromUrl(
  deps: AudioNativeDeps,
  caller: RequestCaller,
  body: UpdateAudioNativeFromUrlBody,
  signal?: AbortSignal,
) {
  const key = pageKey(body.url);
  if (!key) throw invalid('url', 'url must be an http or https URL of the page the player is embedded on.');
  const found = await findAudioNativeByPage(deps.db, caller.workspaceId, key);
  if (!found)
    throw new AppError(
      'resource_not_found',
      'No Audio Native project of this workspace is embedded on that page: embed its player there first, or set the page in its settings.',
    );
  await updateStudioContent(deps.studio, caller, found.projectId, { fields: { from_url: body.url } }, signal);
  const row =
    (await updateAudioNative(deps.db, found.projectId, {
      autoPublish: true,
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.author !== undefined ? { author: body.author } : {}),
    })) ?? found;
  await startStudioConversion(deps.studio, caller, row.projectId, null);
  return {
    project_id: row.projectId,
    converting: true,
    publishing: true,
    html_snippet: htmlSnippet(deps, row),
  };
}

// ---- Parla's pages ---------------------------------------------------------------------------------------

export async function listAudioNativeProjects(deps: AudioNativeDeps, caller: RequestCaller) {
  const projects = [];
  for (const row of await listAudioNatives(deps.db, caller.workspaceId))
    projects.push(await present(deps, row));
  return { projects };
}

export async function getAudioNativeProject(deps: AudioNativeDeps, caller: RequestCaller, projectId: string) {
  return present(deps, await requireRow(deps, caller, projectId));
}

export async function updateAudioNativeSettings(
  deps: AudioNativeDeps,
  caller: RequestCaller,
  projectId: string,
  body: UpdateAudioNativeSettingsBody,
) {
  const found = await requireRow(deps, caller, projectId);
  const image = body.image !== undefined ? checkImage(body.image) : undefined;
  // The owner's page is pinned (players' reports no longer move it); null unpins it: the page most loads
  // came from lately, if any, is the project's page again.
  let page: { pageUrl: string | null; pagePinned: boolean } | undefined;
  if (body.page_url !== undefined) {
    if (body.page_url === null) {
      const since = firstDayOf(deps.clock.now(), AUDIO_NATIVE_PAGE_WINDOW_DAYS);
      page = { pageUrl: await mostLoadedPage(deps.db, found.projectId, since), pagePinned: false };
    } else {
      const key = pageKey(body.page_url);
      if (key === undefined) throw invalid('page_url', 'page_url must be an http or https URL.');
      page = { pageUrl: key, pagePinned: true };
    }
  }
  if (body.name !== undefined) {
    const project = await studioProjectOf(deps, found);
    await updateStudioProject(deps.studio, caller, projectId, {
      name: body.name,
      default_title_voice_id: project.voiceId,
      default_paragraph_voice_id: project.voiceId,
    });
  }
  const row = await applyPublishing(deps, found, body.auto_publish);
  const updated = await updateAudioNative(deps.db, row.projectId, {
    ...(body.title !== undefined ? { title: body.title } : {}),
    ...(body.author !== undefined ? { author: body.author } : {}),
    ...(image !== undefined ? { image } : {}),
    ...(body.small !== undefined ? { small: body.small } : {}),
    ...(body.text_color !== undefined ? { textColor: body.text_color } : {}),
    ...(body.background_color !== undefined ? { backgroundColor: body.background_color } : {}),
    ...(body.sessionization !== undefined ? { sessionizationMinutes: body.sessionization } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    ...(body.allowed_origins !== undefined ? { allowedOrigins: [...new Set(body.allowed_origins)] } : {}),
    ...(page ?? {}),
  });
  return present(deps, updated ?? row);
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** The first UTC day of the `days` days that end today (the analytics' period, the page window). */
export const firstDayOf = (now: Date, days: number) =>
  dayOf(new Date(now.getTime() - (days - 1) * 86_400_000));

/** The page players report is the one most of their loads came from over these last days. */
export const AUDIO_NATIVE_PAGE_WINDOW_DAYS = 30;

export async function getAudioNativeAnalytics(
  deps: AudioNativeDeps,
  caller: RequestCaller,
  projectId: string,
  days = 30,
): Promise<AudioNativeAnalytics> {
  const row = await requireRow(deps, caller, projectId);
  const { snapshot } = await audioOf(deps, row);
  const duration = snapshot?.durationSecs ?? null;
  const from = firstDayOf(deps.clock.now(), days);
  const shape = (r: {
    loads: number;
    plays: number;
    listeners: number;
    listenedSecs: number;
    listenThrough: number | null;
  }) => ({
    loads: r.loads,
    plays: r.plays,
    listeners: r.listeners,
    listened_secs: Math.round(r.listenedSecs * 10) / 10,
    listen_through: r.listenThrough === null ? null : Math.round(r.listenThrough * 1000) / 1000,
  });
  return {
    project_id: row.projectId,
    duration_secs: duration,
    days: (await dailyAnalytics(deps.db, row.projectId, from, duration)).map((r) => ({
      date: r.day,
      ...shape(r),
    })),
    totals: shape(await totalAnalytics(deps.db, row.projectId, from, duration)),
  };
}

// ---- The public player's endpoints ----------------------------------------------------------------------

/** The request's origin facts the public endpoints decide by. */
export interface EmbedRequest {
  origin: string | undefined;
  /** Sec-Fetch-Site: a same-origin or typed-in request sends no Origin on a GET. */
  fetchSite: string | undefined;
}

/**
 * Whether a page may use a project's player (issue 30 item 4 "only for that project"): any origin when the
 * project names none (EL's default: the snippet works wherever it is pasted), else only those and Parla's
 * own pages (the live preview). A browser's cross-origin request always carries Origin (the player's audio
 * element is crossOrigin='anonymous' for this), so a request without one is a same-origin or typed-in one.
 */
export function originAllowed(
  deps: Pick<AudioNativeDeps, 'publicUrl'>,
  row: AudioNativeProjectRow,
  request: EmbedRequest,
): boolean {
  if (row.allowedOrigins.length === 0) return true;
  if (request.origin === undefined)
    return request.fetchSite === 'same-origin' || request.fetchSite === 'none';
  return request.origin === new URL(deps.publicUrl).origin || row.allowedOrigins.includes(request.origin);
}

/** A project the public endpoints serve: enabled and allowed for the request's origin. */
async function embeddable(deps: AudioNativeDeps, projectId: string, request: EmbedRequest) {
  const row = await findAudioNativeById(deps.db, projectId);
  if (!row?.enabled) throw notFound('The Audio Native player');
  if (!originAllowed(deps, row, request))
    throw new AppError(
      'forbidden',
      'This Audio Native player may not be embedded on this site (its allowed origins do not include it).',
    );
  return row;
}

export async function playerConfig(
  deps: AudioNativeDeps,
  projectId: string,
  request: EmbedRequest,
): Promise<AudioNativePlayerConfig> {
  const row = await embeddable(deps, projectId, request);
  const { snapshot } = await audioOf(deps, row);
  return {
    project_id: row.projectId,
    title: row.title,
    author: row.author,
    image: row.image,
    small: row.small,
    text_color: row.textColor,
    background_color: row.backgroundColor,
    sessionization: row.sessionizationMinutes,
    status: snapshot ? 'ready' : 'processing',
    audio_url: snapshot ? `${deps.publicUrl}${audioPath(row.projectId, snapshot.id)}` : null,
    duration_secs: snapshot?.durationSecs ?? null,
  };
}

/**
 * The published audio as one stored MP3 (for Range requests: seeking and resuming). A one-chapter snapshot
 * is its chapter's file; a longer one is joined once (MPEG frames join) beside the Studio project's files,
 * so it goes when the project goes.
 */
export async function playerAudio(deps: AudioNativeDeps, projectId: string, request: EmbedRequest) {
  const row = await embeddable(deps, projectId, request);
  const { snapshot } = await audioOf(deps, row);
  if (!snapshot || snapshot.audioKeys.length === 0) throw notFound('The published audio');
  if (snapshot.audioKeys.length === 1) {
    const key = snapshot.audioKeys[0] as string;
    const stat = await deps.storage.stat(key);
    if (!stat) throw notFound('The published audio');
    return { key, size: stat.size };
  }
  // `-v2`: joined under one header for the whole; a file joined before carries chapter 1's (a new name, so
  // none of those is served again; they go with their project).
  const key = `${studioProjectFolder(row.workspaceId, row.projectId)}audio-native/${snapshot.id}-v2.mp3`;
  let stat = await deps.storage.stat(key);
  if (!stat) {
    await storeJoinedAudio(deps, key, snapshot.audioKeys);
    stat = await deps.storage.stat(key);
    if (!stat) throw notFound('The published audio');
  }
  return { key, size: stat.size };
}

/**
 * Writes the snapshot's chapter MP3s joined into one stored file, under one header for the whole (each
 * chapter's own ID3 tag and Xing/Info frame dropped: they describe that chapter alone). Studio's join reads
 * each part only as the write takes it; a failed write ends it (its open part closed), and a missing or
 * damaged part fails the join (logged) and stores nothing, rather than a shorter file.
 */
export async function storeJoinedAudio(
  deps: Pick<AudioNativeDeps, 'storage' | 'logger'>,
  key: string,
  parts: string[],
): Promise<void> {
  await deps.storage.put(key, await joinStudioMp3(deps, parts));
}

/**
 * One analytics beacon (text/plain JSON from navigator.sendBeacon): added to its session's row of the day.
 * A malformed or oversized body is refused with the error shape and counts nothing.
 */
export async function ingestEvent(
  deps: AudioNativeDeps,
  projectId: string,
  request: EmbedRequest,
  body: string,
) {
  if (Buffer.byteLength(body) > AUDIO_NATIVE_MAX_EVENT_BYTES)
    throw new AppError('payload_too_large', `An event is at most ${AUDIO_NATIVE_MAX_EVENT_BYTES} bytes.`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw invalid(
      'body',
      'An event is a JSON object: {"type": "load"|"play"|"progress", "session": "…", "listened": seconds}.',
    );
  }
  const parsed = AudioNativeEvent.safeParse(json);
  if (!parsed.success)
    throw invalid(
      'body',
      'An event is a JSON object: {"type": "load"|"play"|"progress", "session": "…", "listened": seconds}.',
    );
  const row = await embeddable(deps, projectId, request);
  const event = parsed.data;
  await recordBeacon(deps.db, {
    projectId: row.projectId,
    day: dayOf(deps.clock.now()),
    sessionId: event.session,
    loads: event.type === 'load' ? 1 : 0,
    plays: event.type === 'play' ? 1 : 0,
    listenedSecs: event.type === 'progress' ? (event.listened ?? 0) : 0,
    origin: request.origin ?? null,
  });
  if (event.type === 'load' && event.page) await reportPage(deps, row, request, event.page);
}

/**
 * A page the player says it loaded on (decision 25 "Audio Native", "The project's page"): counted only
 * when it is on the beacon's own Origin (a page cannot speak for another site) and that is not Parla's own
 * (the settings page's preview is not where the player is embedded). The project's page is then the one
 * most loads came from over the last 30 days, so one bad first report — from any site while the allowed
 * origins are empty — is outvoted by the real page's listeners instead of sticking; a page the owner set
 * stays whatever players report.
 */
async function reportPage(
  deps: AudioNativeDeps,
  row: AudioNativeProjectRow,
  request: EmbedRequest,
  page: string,
): Promise<void> {
  const key = pageKey(page);
  if (!key || !request.origin || new URL(key).origin !== request.origin) return;
  if (request.origin === new URL(deps.publicUrl).origin) return;
  const now = deps.clock.now();
  await recordPageLoad(deps.db, row.projectId, dayOf(now), key);
  if (row.pagePinned) return;
  const top = await mostLoadedPage(deps.db, row.projectId, firstDayOf(now, AUDIO_NATIVE_PAGE_WINDOW_DAYS));
  if (top && top !== row.pageUrl) await setReportedPage(deps.db, row.projectId, top);
}
