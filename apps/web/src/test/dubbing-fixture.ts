import type {
  DubbingLanguageEntry,
  DubbingMediaReference,
  DubbingMetadata,
  DubbingResource,
} from '@parla/contracts';

/** A dub as `GET /v1/dubbing` lists it. */
export function makeDub(overrides: Partial<DubbingMetadata> = {}): DubbingMetadata {
  return {
    dubbing_id: 'd1',
    name: 'Product demo',
    status: 'dubbed',
    source_language: 'en',
    target_languages: ['es'],
    editable: true,
    created_at: '2026-11-20T10:00:00.000Z',
    media_metadata: { content_type: 'video/mp4', duration: 95 },
    creation_date_unix: 1_795_000_000,
    expected_duration: 60,
    refunded: false,
    progress: 1,
    progress_message: null,
    stage: 'done',
    usage: { credits: 1584, source_seconds: 95 },
    input: { kind: 'video', file_name: 'demo.mp4' },
    targets: [{ language: 'es', translation: 'apertium', status: 'dubbed' }],
    ...overrides,
  };
}

function language(
  code: DubbingLanguageEntry['code'],
  name: string,
  overrides: Partial<DubbingLanguageEntry> = {},
): DubbingLanguageEntry {
  return {
    code,
    name,
    can_transcribe: code === 'en',
    can_translate_from_english: true,
    can_speak: true,
    voices: 'neural',
    translation: 'offline',
    pivot: [],
    ...overrides,
  };
}

/** A few of the 29 languages, each with what this installation can do. */
export const dubbingLanguages: DubbingLanguageEntry[] = [
  language('en', 'English', { translation: 'none', can_translate_from_english: false }),
  language('es', 'Spanish'),
  language('pt', 'Portuguese', { translation: 'offline_pivot', pivot: ['es'] }),
  language('ja', 'Japanese', { translation: 'none', can_translate_from_english: false }),
  language('fi', 'Finnish', {
    voices: 'none',
    can_speak: false,
    translation: 'none',
    can_translate_from_english: false,
  }),
  language('ta', 'Tamil', { voices: 'none', can_speak: false }),
];

export function mediaRef(slug: string, duration: number, isAudio = false): DubbingMediaReference {
  return {
    src: `${slug}.bin`,
    content_type: isAudio ? 'audio/mpeg' : 'video/mp4',
    bucket_name: 'local',
    random_path_slug: slug,
    duration_secs: duration,
    is_audio: isAudio,
    url: `/v1/dubbing/resource/d1/file/${slug}`,
  };
}

/** The editor's resource of a two-speaker dub into Spanish: three segments. */
export function makeResource(overrides: Partial<DubbingResource> = {}): DubbingResource {
  const segment = (id: string, start: number, end: number, text: string, es: string, stale = false) => ({
    id,
    start_time: start,
    end_time: end,
    text,
    subtitles: [],
    dubs: {
      es: {
        start_time: start,
        end_time: end,
        text: es,
        subtitles: [],
        audio_stale: stale,
        media_ref: mediaRef(`clip-${id}`, end - start, true),
      },
    },
  });
  return {
    id: 'd1',
    version: 3,
    source_language: 'en',
    target_languages: ['es'],
    input: mediaRef('input', 20),
    speaker_tracks: {
      spk1: {
        id: 'spk1',
        media_ref: mediaRef('track-1', 20, true),
        speaker_name: 'Speaker 1',
        voices: { es: 'kokoro_ef_dora' },
        segments: ['s1', 's3'],
      },
      spk2: {
        id: 'spk2',
        media_ref: mediaRef('track-2', 20, true),
        speaker_name: 'Speaker 2',
        voices: { es: 'kokoro_em_alex' },
        segments: ['s2'],
      },
    },
    speaker_segments: {
      s1: segment('s1', 0.5, 3, 'Good morning everyone.', 'Buenos días a todos.'),
      s2: segment('s2', 3.5, 7, 'Thank you for coming.', 'Gracias por venir.', true),
      s3: segment('s3', 8, 12, 'Let us begin.', 'Empecemos.'),
    },
    renders: {},
    ...overrides,
  };
}
