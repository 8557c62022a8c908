import { AUDIO_UPLOAD_ACCEPT, isAudioUpload } from '../../lib/audio-upload-types';
import type {
  DubbingLanguageEntry,
  DubbingMetadata,
  DubbingResource,
  SpeakerSegment,
  SpeakerTrack,
} from './api/types';

/** How often the list and the editor ask again while a dub or a render is being made (issue 29 item 3). */
export const DUBBING_POLL_MS = 2000;

/** Whether any dub listed is still being made (the list polls meanwhile). */
export function anyDubbing(dubs: readonly Pick<DubbingMetadata, 'status'>[]): boolean {
  return dubs.some((dub) => dub.status === 'dubbing');
}

/**
 * history/voices §5 "Uploads": the types a dub's source may be — the audio types every upload takes
 * (lib/audio-upload-types.ts) and the video types mp4, avi, mkv, quicktime, wmv, flv, webm, mpeg, 3gpp — by
 * extension and MIME type.
 */
export const DUBBING_VIDEO_EXTENSIONS = [
  'mp4',
  'm4v',
  'avi',
  'mkv',
  'mov',
  'wmv',
  'flv',
  'webm',
  'mpeg',
  'mpg',
  '3gp',
] as const;

const DUBBING_VIDEO_MIME_TYPES: ReadonlySet<string> = new Set([
  'video/mp4',
  'video/x-msvideo',
  'video/avi',
  'video/x-matroska',
  'video/quicktime',
  'video/x-ms-wmv',
  'video/x-flv',
  'video/webm',
  'video/mpeg',
  'video/3gpp',
]);

/** The `accept` attribute of the new-dub dialog's file input. */
export const DUBBING_UPLOAD_ACCEPT = [
  AUDIO_UPLOAD_ACCEPT,
  ...DUBBING_VIDEO_EXTENSIONS.map((ext) => `.${ext}`),
  ...DUBBING_VIDEO_MIME_TYPES,
].join(',');

/** The types as the dialog lists them. */
export const DUBBING_UPLOAD_TYPES_TEXT =
  'Audio: AAC, AIFF, OGG, MPEG, MP3, OPUS, WAV, WEBM, FLAC, MP4, M4A. Video: MP4, AVI, MKV, MOV, WMV, FLV, WEBM, MPEG, 3GP.';

function extensionOf(name: string): string {
  return name.includes('.') ? (name.split('.').pop()?.toLowerCase() ?? '') : '';
}

/** Whether a file is one of the §5 types, by MIME type or extension (the server checks the content). */
export function isDubbingUpload(file: { name: string; type: string }): boolean {
  const mime = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    isAudioUpload(file) ||
    DUBBING_VIDEO_MIME_TYPES.has(mime) ||
    (DUBBING_VIDEO_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))
  );
}

/** Whether a file is a video (its media element is a <video>), by MIME type or extension. */
export function isVideoFile(file: { name: string; type: string }): boolean {
  if (file.type.startsWith('video/')) return true;
  if (file.type.startsWith('audio/')) return false;
  return (DUBBING_VIDEO_EXTENSIONS as readonly string[]).includes(extensionOf(file.name));
}

/** A language's name: from the server's list, else the browser's names, else the code. */
export function dubbingLanguageName(
  code: string,
  languages: readonly Pick<DubbingLanguageEntry, 'code' | 'name'>[] | undefined,
): string {
  const known = languages?.find((entry) => entry.code === code);
  if (known) return known.name;
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** What the dialog says of a target language: whether it can be chosen, and why not or how. */
export interface TargetAvailability {
  available: boolean;
  /** "no offline translation", "no voice", "through Spanish"; null when nothing needs saying. */
  note: string | null;
}

/**
 * Whether this installation can dub into a language (from `GET /v1/dubbing/languages`): it needs a
 * translation (offline, through a pivot, or a configured server) and a voice that speaks it.
 */
export function targetAvailability(
  entry: DubbingLanguageEntry,
  languages: readonly DubbingLanguageEntry[],
): TargetAvailability {
  const missing: string[] = [];
  if (!entry.can_translate_from_english || entry.translation === 'none')
    missing.push('no offline translation');
  if (!entry.can_speak || entry.voices === 'none') missing.push('no voice');
  if (missing.length > 0) return { available: false, note: missing.join(', ') };
  if (entry.translation === 'offline_pivot' && entry.pivot.length > 0)
    return {
      available: true,
      note: `through ${entry.pivot.map((code) => dubbingLanguageName(code, languages)).join(' and ')}`,
    };
  if (entry.translation === 'server') return { available: true, note: 'translation server' };
  return { available: true, note: null };
}

/** A time as m:ss.s (the editor) or m:ss (lists). */
export function formatClock(seconds: number, tenths = true): string {
  const safe = Math.max(0, Number.isFinite(seconds) ? seconds : 0);
  const minutes = Math.floor(safe / 60);
  const rest = safe - minutes * 60;
  const whole = Math.floor(rest);
  const second = String(whole).padStart(2, '0');
  if (!tenths) return `${minutes}:${second}`;
  return `${minutes}:${second}.${Math.floor((rest - whole) * 10)}`;
}

/** The stage a dub is in, as the list says it while there is no progress message. */
export const stageLabels: Record<DubbingMetadata['stage'], string> = {
  queued: 'Waiting to start',
  preparing: 'Preparing the media',
  transcribing: 'Transcribing',
  translating: 'Translating',
  speaking: 'Speaking the translation',
  mixing: 'Mixing the new track',
  done: 'Done',
};

/** One speaker's lane of the timeline: its track and its segments in time order. */
export interface SpeakerLane {
  speaker: SpeakerTrack;
  segments: SpeakerSegment[];
}

/** The speakers' lanes, in the order the resource lists them, each with its segments by start time. */
export function speakerLanes(resource: DubbingResource): SpeakerLane[] {
  return Object.values(resource.speaker_tracks).map((speaker) => ({
    speaker,
    segments: speaker.segments
      .map((id) => resource.speaker_segments[id])
      .filter((segment): segment is SpeakerSegment => segment !== undefined)
      .sort((a, b) => a.start_time - b.start_time),
  }));
}

/** Every segment of the dub by start time (the arrow keys walk them in this order). */
export function segmentsInOrder(resource: DubbingResource): SpeakerSegment[] {
  return Object.values(resource.speaker_segments).sort(
    (a, b) => a.start_time - b.start_time || a.end_time - b.end_time,
  );
}

/** The speaker a segment belongs to. */
export function speakerOfSegment(resource: DubbingResource, segmentId: string): SpeakerTrack | undefined {
  return Object.values(resource.speaker_tracks).find((speaker) => speaker.segments.includes(segmentId));
}

/** The timeline's length: the input's duration, or the last segment's end when that is later. */
export function timelineSeconds(resource: DubbingResource): number {
  const lastEnd = Math.max(0, ...Object.values(resource.speaker_segments).map((segment) => segment.end_time));
  return Math.max(resource.input.duration_secs, lastEnd, 1);
}

/** The newest render of a language, if any. */
export function latestRender(
  resource: DubbingResource,
  language: string,
): DubbingResource['renders'][string] | undefined {
  return Object.values(resource.renders)
    .filter((render) => render.language === language)
    .sort((a, b) => b.version - a.version)[0];
}

/** Whether any render is still being made (the editor polls meanwhile). */
export function anyRendering(resource: DubbingResource | undefined): boolean {
  return !!resource && Object.values(resource.renders).some((render) => render.status === 'processing');
}
