import { createHash } from 'node:crypto';
import type { StudioBlockRow, StudioProjectRow } from './studio.tables';

/** Where a project's files live in storage (its blocks' audio and its snapshots). */
export const projectFolder = (workspaceId: string, projectId: string) =>
  `studio/${workspaceId}/${projectId}/`;

/** A block's audio (WAV) and its alignment (JSON), kept under the hash of what they were made from. */
export const blockAudioKey = (workspaceId: string, projectId: string, hash: string) =>
  `${projectFolder(workspaceId, projectId)}blocks/${hash}.wav`;
export const blockAlignmentKey = (workspaceId: string, projectId: string, hash: string) =>
  `${projectFolder(workspaceId, projectId)}blocks/${hash}.json`;

/** The model and settings a block is spoken with: its own, else the project's default model. */
export function blockModelOf(
  project: Pick<StudioProjectRow, 'defaultModelId'>,
  block: StudioBlockRow,
): string {
  return block.modelId ?? project.defaultModelId;
}

/**
 * What a block's audio is made from, as one hash: its nodes' texts and voices, its model and
 * settings, the project's text normalisation and its dictionaries' versions. Audio made from the same hash
 * is reused, never spoken again (issue 30: "unchanged blocks are not re-synthesised").
 */
export function blockHash(
  project: Pick<
    StudioProjectRow,
    'defaultModelId' | 'applyTextNormalization' | 'pronunciationDictionaryLocators'
  >,
  block: StudioBlockRow,
): string {
  return createHash('sha256')
    .update(
      JSON.stringify({
        v: 1,
        nodes: block.nodes.map((n) => [n.text, n.voice_id]),
        model: blockModelOf(project, block),
        settings: block.voiceSettings ?? null,
        normalization: project.applyTextNormalization,
        dictionaries: project.pronunciationDictionaryLocators.map((l) => [
          l.pronunciation_dictionary_id,
          l.version_id,
        ]),
      }),
    )
    .digest('hex');
}
