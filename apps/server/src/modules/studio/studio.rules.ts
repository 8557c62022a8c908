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

/** A rule's matcher for rulesTouching (null for an empty string, which touches nothing). */
const matcherOf = (rule: PronunciationRule): RegExp | null =>
  rule.string_to_replace === '' ? null : new RegExp(escapeRegExp(rule.string_to_replace), 'iu');

/** A project's dictionary rules in order, each with its matcher compiled (compileRules). */
export interface CompiledRules {
  readonly rules: readonly PronunciationRule[];
  readonly matchers: readonly (RegExp | null)[];
}

/** Dictionary versions whose matchers are kept (a version's rules never change; the oldest go first). */
const VERSIONS_KEPT = 500;
const matchersByVersion = new Map<string, readonly (RegExp | null)[]>();

/**
 * The rules of a project's dictionary versions, compiled once per version for the life of the process: a
 * chapter read hashes every block with them (a review found a regex compiled per rule per block per read).
 * A version id names rules that never change, so its matchers are reused as they are.
 */
export function compileRules(
  versions: readonly { versionId: string; rules: readonly PronunciationRule[] }[],
): CompiledRules {
  const rules: PronunciationRule[] = [];
  const matchers: (RegExp | null)[] = [];
  for (const version of versions) {
    let compiled = matchersByVersion.get(version.versionId);
    if (!compiled || compiled.length !== version.rules.length) {
      compiled = version.rules.map(matcherOf);
      if (matchersByVersion.size >= VERSIONS_KEPT)
        matchersByVersion.delete(matchersByVersion.keys().next().value as string);
      matchersByVersion.set(version.versionId, compiled);
    }
    rules.push(...version.rules);
    matchers.push(...compiled);
  }
  return { rules, matchers };
}

const compiledOf = (rules: readonly PronunciationRule[] | CompiledRules): CompiledRules =>
  'matchers' in rules ? rules : { rules, matchers: rules.map(matcherOf) };

/**
 * The rules of the project's dictionaries that can change how `text` is spoken: those whose string occurs
 * in it, compared case-insensitively and ignoring word boundaries — a superset of what the speech
 * pipeline's matching (tts pronunciation.ts: case-sensitive or not, bounded or not) can match, so a rule
 * left out never matches there, and the audio made with these rules is the audio made with all of them.
 * Their order is kept (of overlapping matches the rule named first wins).
 */
export function rulesTouching(
  text: string,
  rules: readonly PronunciationRule[] | CompiledRules,
): PronunciationRule[] {
  const { rules: list, matchers } = compiledOf(rules);
  return list.filter((_, i) => matchers[i]?.test(text) ?? false);
}

/** The rules touching any node of a block (what goes into its hash). */
export function blockRules(
  block: StudioBlockRow,
  rules: readonly PronunciationRule[] | CompiledRules,
): PronunciationRule[] {
  const compiled = compiledOf(rules);
  return compiled.rules.length === 0
    ? []
    : rulesTouching(block.nodes.map((n) => n.text).join('\n'), compiled);
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
  rules: readonly PronunciationRule[] | CompiledRules = [],
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
