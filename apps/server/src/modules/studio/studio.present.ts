import type {
  StudioChapter,
  StudioChapterWithContent,
  StudioProject,
  StudioProjectExtended,
} from '@parla/contracts';
import type { ResolvedDictionaryVersion } from '../pronunciation-dictionaries';
import { DEFAULT_VOICE_SETTINGS } from '../voices';
import type {
  StudioBlockRow,
  StudioChapterRow,
  StudioChapterSnapshotRow,
  StudioProjectRow,
  StudioProjectSnapshotRow,
} from './studio.tables';

/** Rows → the public API's shapes (every field its serializer requires; history/voices §3 defaults). */

const unix = (date: Date | null): number | null => (date ? Math.floor(date.getTime() / 1000) : null);

/** A project voice's reference in a node: Parla keeps no per-project voice table, so it is the voice id. */
const voiceRef = (voiceId: string) => voiceId;

export function presentProject(row: StudioProjectRow, chapterIds: string[]): StudioProject {
  return {
    project_id: row.id,
    name: row.name,
    create_date_unix: unix(row.createdAt) ?? 0,
    created_by_user_id: row.userId,
    default_title_voice_id: row.defaultTitleVoiceId,
    default_paragraph_voice_id: row.defaultParagraphVoiceId,
    default_title_voice_ref_id: voiceRef(row.defaultTitleVoiceId),
    default_paragraph_voice_ref_id: voiceRef(row.defaultParagraphVoiceId),
    default_model_id: row.defaultModelId,
    last_conversion_date_unix: unix(row.lastConversionAt),
    can_be_downloaded: row.latestSnapshotId !== null,
    title: row.title,
    author: row.author,
    description: row.description,
    genres: row.genres,
    cover_image_url: row.coverImageUrl,
    target_audience: row.targetAudience,
    language: row.language,
    content_type: row.contentType,
    original_publication_date: row.originalPublicationDate,
    mature_content: row.matureContent,
    isbn_number: row.isbnNumber,
    fiction: row.fiction,
    volume_normalization: row.volumeNormalization,
    acx_volume_normalization: row.acxVolumeNormalization,
    state: row.state,
    access_level: 'admin',
    quality_check_on: false,
    quality_check_on_when_bulk_convert: false,
    source_type: row.sourceType,
    chapters_enabled: true,
    callback_url: row.callbackUrl,
    project_settings: row.projectSettings,
    chapters_order: chapterIds,
    last_chapters_order_change_unix_ms: row.lastChaptersOrderChangeMs,
    project_conversion_chapter_ids_converting: row.convertingChapterIds,
    latest_snapshot_id: row.latestSnapshotId,
    added_to_queue_at_unix: row.addedToQueueAtUnix,
    queue_position: row.queuePosition,
    creation_meta: { creation_progress: 1, status: 'success', type: row.sourceType },
  };
}

const charactersOf = (block: StudioBlockRow) => block.nodes.reduce((sum, n) => sum + n.text.length, 0);

export function presentChapter(row: StudioChapterRow, blocks: StudioBlockRow[]): StudioChapter {
  const converted = blocks.filter((b) => b.convertedHash !== null);
  const unconverted = blocks.filter((b) => b.convertedHash === null);
  return {
    chapter_id: row.id,
    name: row.name,
    last_conversion_date_unix: unix(row.lastConversionAt),
    conversion_progress: row.conversionProgress,
    can_be_downloaded: row.lastConversionAt !== null,
    state: row.state,
    has_video: false,
    has_visual_content: false,
    voice_ids: [...new Set(blocks.flatMap((b) => b.nodes.map((n) => n.voice_id)))],
    statistics: {
      characters_unconverted: unconverted.reduce((s, b) => s + charactersOf(b), 0),
      characters_converted: converted.reduce((s, b) => s + charactersOf(b), 0),
      paragraphs_converted: converted.length,
      paragraphs_unconverted: unconverted.length,
    },
    last_conversion_error: row.lastConversionError,
    block_ids_order: blocks.map((b) => b.id),
    last_block_ids_order_change_unix_ms: row.lastBlockIdsOrderChangeMs,
  };
}

export function presentChapterWithContent(
  row: StudioChapterRow,
  blocks: StudioBlockRow[],
  /** The hash each block would have now: a block is converted when its audio was made from exactly that. */
  currentHash?: (block: StudioBlockRow) => string,
): StudioChapterWithContent {
  return {
    ...presentChapter(row, blocks),
    content: {
      blocks: blocks.map((b) => ({
        block_id: b.id,
        sub_type: b.subType,
        nodes: b.nodes.map((n) => ({
          type: 'tts_node' as const,
          project_voice_ref_id: voiceRef(n.voice_id),
          text: n.text,
          voice_id: n.voice_id,
        })),
        model_id: b.modelId,
        converted: b.convertedHash !== null && (!currentHash || currentHash(b) === b.convertedHash),
      })),
    },
  };
}

export function presentProjectExtended(
  row: StudioProjectRow,
  chapters: { row: StudioChapterRow; blocks: StudioBlockRow[] }[],
  versions: readonly ResolvedDictionaryVersion[] = [],
): StudioProjectExtended {
  const voiceIds = new Set<string>([row.defaultTitleVoiceId, row.defaultParagraphVoiceId]);
  for (const c of chapters) for (const b of c.blocks) for (const n of b.nodes) voiceIds.add(n.voice_id);
  return {
    ...presentProject(
      row,
      chapters.map((c) => c.row.id),
    ),
    quality_preset: row.qualityPreset,
    chapters: chapters.map((c) => presentChapter(c.row, c.blocks)),
    // What each locator resolves to now (a locator without a version: the dictionary's latest).
    pronunciation_dictionary_versions: versions.map((v) => ({
      version_id: v.versionId,
      version_rules_num: v.rulesNum,
      pronunciation_dictionary_id: v.dictionaryId,
      dictionary_name: v.dictionaryName,
      version_name: `v${v.versionNumber}`,
      created_by: v.createdBy ?? '',
      creation_time_unix: Math.floor(v.createdAt.getTime() / 1000),
    })),
    pronunciation_dictionary_locators: row.pronunciationDictionaryLocators,
    apply_text_normalization: row.applyTextNormalization,
    assets: [],
    voices: [...voiceIds].map((voiceId) => ({
      project_voice_ref_id: voiceRef(voiceId),
      voice_id: voiceId,
      alias: voiceId,
      stability: DEFAULT_VOICE_SETTINGS.stability,
      similarity_boost: DEFAULT_VOICE_SETTINGS.similarity_boost,
      style: DEFAULT_VOICE_SETTINGS.style,
      is_pinned: false,
      use_speaker_boost: DEFAULT_VOICE_SETTINGS.use_speaker_boost,
      volume_gain: 0,
      speed: DEFAULT_VOICE_SETTINGS.speed,
    })),
  };
}

export function presentProjectSnapshot(row: StudioProjectSnapshotRow) {
  return {
    project_snapshot_id: row.id,
    project_id: row.projectId,
    created_at_unix: unix(row.createdAt) ?? 0,
    name: row.name,
  };
}

export function presentChapterSnapshot(row: StudioChapterSnapshotRow) {
  return {
    chapter_snapshot_id: row.id,
    project_id: row.projectId,
    chapter_id: row.chapterId,
    created_at_unix: unix(row.createdAt) ?? 0,
    name: row.name,
  };
}
