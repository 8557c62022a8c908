import { createHash } from 'node:crypto';
import type { PronunciationRule } from '@parla/contracts';
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

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The rules of the project's dictionaries that can change how `text` is spoken: those whose string occurs
 * in it, compared case-insensitively and ignoring word boundaries — a superset of what the speech
 * pipeline's matching (tts pronunciation.ts: case-sensitive or not, bounded or not) can match, so a rule
 * left out never matches there, and the audio made with these rules is the audio made with all of them.
 * Their order is kept (of overlapping matches the rule named first wins). A literal search in the lower
 * case, as the pipeline's matching does; a regular expression's case folding only where the lower case
 * moves characters (a review found a regex compiled per rule per block on every chapter read).
 */
export function rulesTouching(text: string, rules: readonly PronunciationRule[]): PronunciationRule[] {
  const lowered = text.toLowerCase();
  const lower = lowered.length === text.length ? lowered : undefined;
  return rules.filter((rule) => {
    const target = rule.string_to_replace;
    if (target === '') return false;
    const needle = target.toLowerCase();
    if (lower !== undefined && needle.length === target.length) return lower.includes(needle);
    return new RegExp(escapeRegExp(target), 'iu').test(text);
  });
}

/** The rules touching any node of a block (what goes into its hash). */
export function blockRules(block: StudioBlockRow, rules: readonly PronunciationRule[]): PronunciationRule[] {
  return rules.length === 0 ? [] : rulesTouching(block.nodes.map((n) => n.text).join('\n'), rules);
}

/**
 * What a block's audio is made from, as one hash: its nodes' texts and voices, its model and settings,
 * the project's text normalisation, and the rules of its dictionaries' resolved versions that touch its
 * text (rulesTouching). A locator to a dictionary's latest version therefore re-speaks, after the
 * dictionary changed, exactly the blocks whose text a changed rule touches; a project without
 * dictionaries hashes as before they were wired (an empty list). Audio made from the same hash is reused,
 * never spoken again (issue 30: "unchanged blocks are not re-synthesised").
 */
export function blockHash(
  project: Pick<StudioProjectRow, 'defaultModelId' | 'applyTextNormalization'>,
  block: StudioBlockRow,
  rules: readonly PronunciationRule[] = [],
): string {
  return createHash('sha256')
    .update(
      JSON.stringify({
        v: 1,
        nodes: block.nodes.map((n) => [n.text, n.voice_id]),
        model: blockModelOf(project, block),
        settings: block.voiceSettings ?? null,
        normalization: project.applyTextNormalization,
        dictionaries: blockRules(block, rules),
      }),
    )
    .digest('hex');
}
