import type {
  DubbingMediaReference,
  DubbingMetadata,
  DubbingRender,
  DubbingResource,
  SpeakerSegment,
  SpeakerTrack,
} from '@parla/contracts';
import type {
  DubRenderRow,
  DubRow,
  DubSegmentLanguageRow,
  DubSegmentRow,
  DubSpeakerRow,
} from './dubbing.tables';

/** Dub rows → the public API's shapes (issue 29). */

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * `DubbingMetadataResponse` with history/voices §3's entity fields; `routeOf` says how a target language is
 * translated here ("apertium: en → es → pt"), or null when it cannot be.
 */
export function toDubbingMetadata(
  row: DubRow,
  routeOf: (source: string, target: string) => string | null = () => null,
): DubbingMetadata {
  const source = row.sourceLanguage ?? 'en';
  return {
    dubbing_id: row.id,
    name: row.name,
    status: row.status,
    ...(row.sourceLanguage ? { source_language: row.sourceLanguage } : {}),
    target_languages: row.targetLanguages,
    editable: row.status === 'dubbed',
    created_at: row.createdAt.toISOString(),
    media_metadata: { content_type: row.input.contentType, duration: round(row.input.durationSec) },
    ...(row.error ? { error: row.error } : {}),
    creation_date_unix: Math.floor(row.createdAt.getTime() / 1000),
    expected_duration: row.expectedDurationSec,
    refunded: row.refunded,
    progress: round(row.progress),
    progress_message: row.progressMessage,
    stage: row.stage,
    usage: { credits: row.refunded ? 0 : row.credits, source_seconds: round(row.input.durationSec) },
    input: { kind: row.input.kind, file_name: row.input.fileName },
    targets: row.targetLanguages.map((language) => ({
      language,
      translation: source === language ? null : routeOf(source, language),
      status: row.status,
    })),
  };
}

/** The URL a file of the dub is served at (`GET /v1/dubbing/resource/{id}/file/{file}`). */
export function fileUrl(publicUrl: string, dubId: string, fileId: string): string {
  return `${publicUrl}/v1/dubbing/resource/${encodeURIComponent(dubId)}/file/${encodeURIComponent(fileId)}`;
}

/** A `DubbingMediaReference` for a stored file of the dub. */
export function mediaRef(
  publicUrl: string,
  dub: Pick<DubRow, 'id'>,
  file: { fileId: string; contentType: string; durationSec: number; isAudio: boolean },
): DubbingMediaReference {
  return {
    src: file.fileId,
    content_type: file.contentType,
    bucket_name: 'parla',
    random_path_slug: dub.id,
    duration_secs: round(file.durationSec),
    is_audio: file.isAudio,
    url: fileUrl(publicUrl, dub.id, file.fileId),
  };
}

/** Subtitle frames of a text over a time span: lines of at most 42 characters, two lines a frame. */
export function subtitleFrames(text: string, start: number, end: number) {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > 42) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  const frames: { start_time: number; end_time: number; lines: string[] }[] = [];
  const count = Math.max(1, Math.ceil(lines.length / 2));
  const span = (end - start) / count;
  for (let i = 0; i < count; i++)
    frames.push({
      start_time: round(start + i * span),
      end_time: round(start + (i + 1) * span),
      lines: lines.slice(i * 2, i * 2 + 2),
    });
  return lines.length === 0 ? [] : frames;
}

/** The editor's `DubbingResource`. */
export function toDubbingResource(
  publicUrl: string,
  dub: DubRow,
  parts: {
    speakers: DubSpeakerRow[];
    segments: DubSegmentRow[];
    languages: DubSegmentLanguageRow[];
    renders: DubRenderRow[];
  },
): DubbingResource {
  const input = mediaRef(publicUrl, dub, {
    fileId: 'source',
    contentType: dub.input.contentType,
    durationSec: dub.input.durationSec,
    isAudio: dub.input.kind === 'audio',
  });
  const byLanguage = new Map<string, DubSegmentLanguageRow[]>();
  for (const row of parts.languages) {
    const list = byLanguage.get(row.segmentId) ?? [];
    list.push(row);
    byLanguage.set(row.segmentId, list);
  }
  const tracks: Record<string, SpeakerTrack> = {};
  for (const speaker of parts.speakers)
    tracks[speaker.id] = {
      id: speaker.id,
      media_ref: input,
      speaker_name: speaker.name,
      voices: { ...speaker.matched, ...speaker.voices },
      segments: parts.segments.filter((s) => s.speakerId === speaker.id).map((s) => s.id),
    };
  const segments: Record<string, SpeakerSegment> = {};
  for (const segment of parts.segments) {
    const dubs: SpeakerSegment['dubs'] = {};
    for (const l of byLanguage.get(segment.id) ?? [])
      dubs[l.language] = {
        start_time: round(l.startTime),
        end_time: round(l.endTime),
        ...(l.text !== null ? { text: l.text } : {}),
        subtitles: l.text ? subtitleFrames(l.text, l.startTime, l.endTime) : [],
        audio_stale: l.audioStale || l.audioKey === null,
        ...(l.audioKey
          ? {
              media_ref: mediaRef(publicUrl, dub, {
                fileId: `clip-${segment.id}-${l.language}`,
                contentType: 'audio/wav',
                durationSec: l.endTime - l.startTime + (l.overflowSec ?? 0),
                isAudio: true,
              }),
            }
          : {}),
      };
    segments[segment.id] = {
      id: segment.id,
      start_time: round(segment.startTime),
      end_time: round(segment.endTime),
      text: segment.text,
      subtitles: subtitleFrames(segment.text, segment.startTime, segment.endTime),
      dubs,
    };
  }
  const renders: Record<string, DubbingRender> = {};
  for (const render of parts.renders)
    renders[render.id] = {
      id: render.id,
      version: render.version,
      language: render.language,
      type: render.type,
      status: render.status,
      ...(render.key && render.status === 'complete'
        ? {
            media_ref: mediaRef(publicUrl, dub, {
              fileId: `render-${render.id}`,
              contentType: render.contentType ?? 'application/octet-stream',
              durationSec: render.durationSec ?? dub.input.durationSec,
              isAudio: render.type !== 'mp4',
            }),
          }
        : {}),
    };
  return {
    id: dub.id,
    version: dub.version,
    source_language: dub.sourceLanguage ?? dub.sourceLangRequested,
    target_languages: dub.targetLanguages,
    input,
    speaker_tracks: tracks,
    speaker_segments: segments,
    renders,
  };
}
