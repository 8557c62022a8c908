import {
  type StudioChapter,
  StudioChapter as StudioChapterSchema,
  type StudioChapterWithContent,
  StudioChapterWithContent as StudioChapterWithContentSchema,
  type StudioProjectExtended,
  StudioProjectExtended as StudioProjectExtendedSchema,
} from '@parla/contracts';

/** A contract-valid chapter; `overrides` change any field. */
export function makeStudioChapter(overrides: Partial<StudioChapter> = {}): StudioChapter {
  return StudioChapterSchema.parse({
    chapter_id: 'c1',
    name: 'Chapter One',
    last_conversion_date_unix: null,
    conversion_progress: null,
    can_be_downloaded: false,
    state: 'default',
    has_video: false,
    has_visual_content: false,
    voice_ids: ['narrator'],
    statistics: {
      characters_unconverted: 0,
      characters_converted: 0,
      paragraphs_converted: 0,
      paragraphs_unconverted: 0,
    },
    last_conversion_error: null,
    block_ids_order: [],
    last_block_ids_order_change_unix_ms: null,
    ...overrides,
  });
}

/** A chapter with a heading and a paragraph, both in the narrator's voice. */
export function makeStudioChapterWithContent(
  overrides: Partial<StudioChapterWithContent> = {},
): StudioChapterWithContent {
  return StudioChapterWithContentSchema.parse({
    ...makeStudioChapter(),
    content: {
      blocks: [
        {
          block_id: 'b1',
          sub_type: 'h1',
          nodes: [
            { type: 'tts_node', project_voice_ref_id: 'r1', text: 'Chapter One', voice_id: 'narrator' },
          ],
          model_id: null,
          converted: false,
        },
        {
          block_id: 'b2',
          sub_type: 'p',
          nodes: [
            {
              type: 'tts_node',
              project_voice_ref_id: 'r1',
              text: 'He said hello to her.',
              voice_id: 'narrator',
            },
          ],
          model_id: null,
          converted: false,
        },
      ],
    },
    ...overrides,
  });
}

/** A contract-valid project with one chapter; `overrides` change any field. */
export function makeStudioProject(overrides: Partial<StudioProjectExtended> = {}): StudioProjectExtended {
  return StudioProjectExtendedSchema.parse({
    project_id: 'p1',
    name: 'My Book',
    create_date_unix: 1_780_000_000,
    created_by_user_id: 'u1',
    default_title_voice_id: 'narrator',
    default_paragraph_voice_id: 'narrator',
    default_title_voice_ref_id: 'r1',
    default_paragraph_voice_ref_id: 'r1',
    default_model_id: 'parla_neural_v1',
    last_conversion_date_unix: null,
    can_be_downloaded: false,
    title: null,
    author: null,
    description: '',
    genres: [],
    cover_image_url: '',
    target_audience: 'all ages',
    language: null,
    content_type: null,
    original_publication_date: null,
    mature_content: false,
    isbn_number: null,
    fiction: null,
    volume_normalization: false,
    acx_volume_normalization: false,
    state: 'default',
    access_level: 'admin',
    quality_check_on: false,
    quality_check_on_when_bulk_convert: false,
    source_type: 'book',
    chapters_enabled: true,
    callback_url: null,
    project_settings: { continue_playing: false },
    chapters_order: ['c1'],
    last_chapters_order_change_unix_ms: null,
    project_conversion_chapter_ids_converting: [],
    latest_snapshot_id: null,
    added_to_queue_at_unix: 0,
    queue_position: null,
    creation_meta: { creation_progress: 1, status: 'done', type: 'blank' },
    quality_preset: 'standard',
    chapters: [makeStudioChapter()],
    pronunciation_dictionary_versions: [],
    pronunciation_dictionary_locators: [],
    apply_text_normalization: 'auto',
    assets: [],
    voices: [],
    ...overrides,
  });
}
