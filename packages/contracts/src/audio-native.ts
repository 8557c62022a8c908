import { z } from 'zod';
import { defineRoute } from './routes';
import { STUDIO_TEXT_NORMALIZATION } from './studio';

/*
 * Audio Native (issue 30 item 4; history/voices §7 "audio-native stats and settings, publish and embed
 * code"; accounts §2 `/app/audio-native`): a Studio project with an embeddable player. The public API's
 * calls follow `audioNative` of @elevenlabs/elevenlabs-js; the player's config, audio and events and the
 * workspace's list, settings update and analytics are Parla's own.
 */

/** The player's defaults (EL's documented player: dark text on white, a session lasts half an hour). */
export const AUDIO_NATIVE_DEFAULT_TEXT_COLOR = '#000000';
export const AUDIO_NATIVE_DEFAULT_BACKGROUND_COLOR = '#FFFFFF';
export const AUDIO_NATIVE_DEFAULT_SESSIONIZATION_MINUTES = 30;
/** Sessionization is minutes between 1 and a day. */
export const AUDIO_NATIVE_MAX_SESSIONIZATION_MINUTES = 24 * 60;
/** The most origins a project's embed allows (each an https?://host[:port] origin). */
export const AUDIO_NATIVE_MAX_ORIGINS = 50;
/** The largest analytics beacon body (bytes). */
/** The longest period the analytics answer (`?days=`): sessions older than it are deleted (decision 25). */
export const AUDIO_NATIVE_ANALYTICS_MAX_DAYS = 366;
export const AUDIO_NATIVE_MAX_EVENT_BYTES = 1024;

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
/** A CSS colour the player accepts: #rgb or #rrggbb only (it becomes a custom property, never markup). */
export const AudioNativeColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'A colour is #rgb or #rrggbb.');
/** An origin as the browser sends it: scheme, host and port only. */
export const AudioNativeOrigin = z
  .string()
  .max(300)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
    } catch {
      return false;
    }
  }, 'An allowed origin is scheme://host[:port], e.g. https://blog.example.com (no path, no trailing slash).');

const sessionization = z
  .string()
  .regex(/^\d+$/, 'sessionization is a whole number of minutes.')
  .transform(Number)
  .pipe(z.number().int().min(1).max(AUDIO_NATIVE_MAX_SESSIONIZATION_MINUTES));

/** `POST /v1/audio-native` (multipart; BodyCreatesAudioNativeEnabledProjectV1AudioNativePost). */
export const CreateAudioNativeFields = z.object({
  name: z.string().trim().min(1, 'The project needs a name.').max(255),
  image: z.string().max(2048).optional(),
  author: z.string().max(500).optional(),
  title: z.string().max(500).optional(),
  small: bool.optional(),
  text_color: AudioNativeColor.optional(),
  background_color: AudioNativeColor.optional(),
  sessionization: sessionization.optional(),
  voice_id: z.string().min(1).max(100).optional(),
  model_id: z.string().min(1).max(100).optional(),
  auto_convert: bool.optional(),
  apply_text_normalization: z.enum(STUDIO_TEXT_NORMALIZATION).optional(),
  pronunciation_dictionary_locators: z.array(z.string().max(1000)).max(10).optional(),
});
export type CreateAudioNativeFields = z.infer<typeof CreateAudioNativeFields>;

/** `POST /v1/audio-native/{project_id}/content` (multipart). */
export const UpdateAudioNativeContentFields = z.object({
  auto_convert: bool.optional(),
  auto_publish: bool.optional(),
});
export type UpdateAudioNativeContentFields = z.infer<typeof UpdateAudioNativeContentFields>;

/** `POST /v1/audio-native/content`: the project whose page is `url` gets that page's text. */
export const UpdateAudioNativeFromUrlBody = z.object({
  url: z.string().min(1).max(2048),
  author: z.string().max(500).optional(),
  title: z.string().max(500).optional(),
});
export type UpdateAudioNativeFromUrlBody = z.infer<typeof UpdateAudioNativeFromUrlBody>;

export const AudioNativeCreateResponse = z.object({
  project_id: z.string(),
  converting: z.boolean(),
  html_snippet: z.string(),
});
export const AudioNativeEditContentResponse = z.object({
  project_id: z.string(),
  converting: z.boolean(),
  publishing: z.boolean(),
  html_snippet: z.string(),
});

export const AUDIO_NATIVE_STATUSES = ['processing', 'ready'] as const;
export const AudioNativeSettings = z.object({
  title: z.string(),
  image: z.string(),
  author: z.string(),
  small: z.boolean(),
  text_color: z.string(),
  background_color: z.string(),
  sessionization: z.number().int(),
  audio_path: z.string().optional(),
  audio_url: z.string().optional(),
  status: z.enum(AUDIO_NATIVE_STATUSES).optional(),
});
export type AudioNativeSettings = z.infer<typeof AudioNativeSettings>;

export const GetAudioNativeSettingsResponse = z.object({
  enabled: z.boolean(),
  snapshot_id: z.string().optional(),
  settings: AudioNativeSettings.optional(),
});

/** Ours: a project as the workspace's pages list it. */
export const AudioNativeProject = z.object({
  project_id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  status: z.enum(AUDIO_NATIVE_STATUSES),
  /** Studio's state of the project (converting while a conversion runs). */
  state: z.string(),
  voice_id: z.string(),
  model_id: z.string(),
  settings: AudioNativeSettings,
  allowed_origins: z.array(z.string()),
  /** The page the player is on: the owner's, else the one most loads came from in 30 days (decision 25). */
  page_url: z.string().nullable(),
  auto_publish: z.boolean(),
  published_snapshot_id: z.string().nullable(),
  duration_secs: z.number().nullable(),
  html_snippet: z.string(),
  created_at_unix: z.number().int(),
});
export type AudioNativeProject = z.infer<typeof AudioNativeProject>;

/** Ours: the player settings the pages change (every field optional; absent keeps the value). */
export const UpdateAudioNativeSettingsBody = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  title: z.string().max(500).optional(),
  author: z.string().max(500).optional(),
  image: z.string().max(2048).optional(),
  small: z.boolean().optional(),
  text_color: AudioNativeColor.optional(),
  background_color: AudioNativeColor.optional(),
  sessionization: z.number().int().min(1).max(AUDIO_NATIVE_MAX_SESSIONIZATION_MINUTES).optional(),
  enabled: z.boolean().optional(),
  allowed_origins: z.array(AudioNativeOrigin).max(AUDIO_NATIVE_MAX_ORIGINS).optional(),
  /** Pins the project's page (players' reports no longer move it); null unpins it. */
  page_url: z.string().url().max(2048).nullable().optional(),
  /** Publish the latest snapshot now (and keep publishing new ones when auto_publish is true). */
  auto_publish: z.boolean().optional(),
});
export type UpdateAudioNativeSettingsBody = z.infer<typeof UpdateAudioNativeSettingsBody>;

/** Ours: one day of a project's analytics. */
export const AudioNativeDay = z.object({
  date: z.string(),
  loads: z.number().int(),
  plays: z.number().int(),
  /** Distinct sessions that played (a listener per sessionization window, no cookie). */
  listeners: z.number().int(),
  listened_secs: z.number(),
  /** Mean over the listening sessions of min(1, seconds listened / the audio's duration); null without audio. */
  listen_through: z.number().nullable(),
});
export type AudioNativeDay = z.infer<typeof AudioNativeDay>;
export const AudioNativeAnalytics = z.object({
  project_id: z.string(),
  duration_secs: z.number().nullable(),
  days: z.array(AudioNativeDay),
  totals: AudioNativeDay.omit({ date: true }),
});
export type AudioNativeAnalytics = z.infer<typeof AudioNativeAnalytics>;

/** Ours, public: what the embedded player needs (no key; readable only by the project's allowed origins). */
export const AudioNativePlayerConfig = z.object({
  project_id: z.string(),
  title: z.string(),
  author: z.string(),
  image: z.string(),
  small: z.boolean(),
  text_color: z.string(),
  background_color: z.string(),
  sessionization: z.number().int(),
  status: z.enum(AUDIO_NATIVE_STATUSES),
  audio_url: z.string().nullable(),
  duration_secs: z.number().nullable(),
});
export type AudioNativePlayerConfig = z.infer<typeof AudioNativePlayerConfig>;

/** An analytics beacon (text/plain JSON, sent by the player with navigator.sendBeacon). */
export const AudioNativeEvent = z.object({
  type: z.enum(['load', 'play', 'progress']),
  /** A random id the player keeps in the host page's localStorage for one sessionization window. */
  session: z.string().regex(/^[A-Za-z0-9-]{8,64}$/),
  /** Seconds actually played since the previous beacon (0 for load/play). */
  listened: z.number().min(0).max(3600).optional(),
  /** The host page (origin and path), for `POST /v1/audio-native/content` to find the project by. */
  page: z.string().max(2048).optional(),
});
export type AudioNativeEvent = z.infer<typeof AudioNativeEvent>;

const P = '/v1/audio-native';
const tags = ['audio-native'] as const;
const projectParams = z.object({ project_id: z.string().min(1).max(100) });

export const createAudioNativeRoute = defineRoute({
  method: 'POST',
  path: P,
  summary:
    'Create an Audio Native project (multipart: name, player settings, file, auto_convert) and its embed snippet',
  tags,
  response: AudioNativeCreateResponse,
});
export const getAudioNativeSettingsRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/settings`,
  summary: 'An Audio Native project’s player settings',
  tags,
  params: projectParams,
  response: GetAudioNativeSettingsResponse,
});
export const updateAudioNativeContentRoute = defineRoute({
  method: 'POST',
  path: `${P}/:project_id/content`,
  summary: 'Replace an Audio Native project’s content (multipart: file, auto_convert, auto_publish)',
  tags,
  params: projectParams,
  response: AudioNativeEditContentResponse,
});
export const updateAudioNativeContentFromUrlRoute = defineRoute({
  method: 'POST',
  path: `${P}/content`,
  summary: 'Refresh the Audio Native project embedded on a page from that page’s text',
  tags,
  body: UpdateAudioNativeFromUrlBody,
  response: AudioNativeEditContentResponse,
});
/** Parla's own: the workspace's projects (the `/app/audio-native` page). */
export const listAudioNativeProjectsRoute = defineRoute({
  method: 'GET',
  path: P,
  summary: 'The workspace’s Audio Native projects (Parla)',
  tags,
  response: z.object({ projects: z.array(AudioNativeProject) }),
});
export const getAudioNativeProjectRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id`,
  summary: 'One Audio Native project (Parla)',
  tags,
  params: projectParams,
  response: AudioNativeProject,
});
export const updateAudioNativeSettingsRoute = defineRoute({
  method: 'PATCH',
  path: `${P}/:project_id/settings`,
  summary: 'Change an Audio Native project’s player settings, allowed origins or publishing (Parla)',
  tags,
  params: projectParams,
  body: UpdateAudioNativeSettingsBody,
  response: AudioNativeProject,
});
export const getAudioNativeAnalyticsRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/analytics`,
  summary: 'Loads, plays, listeners and listen-through per day (Parla)',
  tags,
  params: projectParams,
  query: z.object({ days: z.coerce.number().int().min(1).max(AUDIO_NATIVE_ANALYTICS_MAX_DAYS).optional() }),
  response: AudioNativeAnalytics,
});
/** Parla's own, public: the embedded player's configuration. */
export const getAudioNativePlayerRoute = defineRoute({
  method: 'GET',
  path: `${P}/:project_id/player`,
  summary: 'The embedded player’s configuration (public; CORS for the project’s allowed origins)',
  tags,
  params: projectParams,
  response: AudioNativePlayerConfig,
});
