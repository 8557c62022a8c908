import type {
  CharacterAlignmentModel,
  ModelResponse,
  StudioBlockInput,
  StudioBlockSubType,
  StudioChapterWithContent,
  StudioProgressEvent,
  StudioProject,
  VoiceResponse,
} from '@parla/contracts';
import { modelSpeaksVoice } from '../tts';

/*
 * The Studio editor's pure rules (issue 30 item 3): the chapter's blocks as editable paragraphs and back,
 * a voice change on a selection (it splits the node), pauses, where a paragraph starts in the chapter's
 * audio and which paragraph is being spoken, the progress of a conversion, and its server-sent events.
 */

/** One run of text in one voice (a `tts_node`). */
export interface DraftNode {
  text: string;
  voice_id: string;
}

/** A paragraph or heading as the editor holds it; `block_id` null for one added here and not saved yet. */
export interface DraftBlock {
  key: string;
  block_id: string | null;
  sub_type: StudioBlockSubType;
  nodes: DraftNode[];
  /** The block's own model (the server's `model_id`), or null: it speaks with the project's. */
  model_id?: string | null;
}

let keySeq = 0;
/** A key for a block that React keeps across edits (the block id where there is one). */
export function newBlockKey(): string {
  keySeq += 1;
  return `new-${keySeq}`;
}

export function isHeading(subType: StudioBlockSubType): boolean {
  return subType !== 'p';
}

/** The voice a new block of this kind starts with: the title voice for headings, else the paragraph voice. */
export function defaultVoiceOf(
  subType: StudioBlockSubType,
  project: Pick<StudioProject, 'default_title_voice_id' | 'default_paragraph_voice_id'>,
): string {
  return isHeading(subType) ? project.default_title_voice_id : project.default_paragraph_voice_id;
}

export function toDraftBlocks(chapter: Pick<StudioChapterWithContent, 'content'>): DraftBlock[] {
  return chapter.content.blocks.map((block) => ({
    key: block.block_id,
    block_id: block.block_id,
    sub_type: block.sub_type,
    nodes: block.nodes.map((node) => ({ text: node.text, voice_id: node.voice_id })),
    model_id: block.model_id,
  }));
}

/** The model a block speaks with: its own, else the project's (the server's studio.rules `blockModelOf`). */
export function blockModelId(
  block: Pick<DraftBlock, 'model_id'>,
  project: Pick<StudioProject, 'default_model_id'>,
): string {
  return block.model_id ?? project.default_model_id;
}

type SpeakingModel = Pick<ModelResponse, 'model_id' | 'languages'>;
type SpeakingVoice = Pick<VoiceResponse, 'voice_id' | 'labels' | 'high_quality_base_model_ids'>;

/**
 * Whether `modelId` can speak `voice`, from what the server says (`GET /v1/models`' languages and each
 * voice's `high_quality_base_model_ids`, through text to speech's `modelSpeaksVoice`): the fast neural
 * model (Piper, the Studio default) speaks only the American men's voices, which list it. A model the
 * list does not hold (not loaded yet, or gone) is not judged: true, the server's conversion says.
 */
export function voiceSpeaksModel(
  voice: SpeakingVoice,
  models: readonly SpeakingModel[],
  modelId: string,
): boolean {
  const model = models.find((m) => m.model_id === modelId);
  return model ? modelSpeaksVoice(model, voice) : true;
}

/** The voices a picker offers for a block or project spoken with `modelId`: those the model can speak. */
export function voicesForModel<V extends SpeakingVoice>(
  voices: readonly V[],
  models: readonly SpeakingModel[],
  modelId: string,
): V[] {
  return voices.filter((v) => voiceSpeaksModel(v, models, modelId));
}

/**
 * Why a voice chosen before cannot speak now (the block's or project's model changed, or a voice picked
 * under another model): a sentence for the flag under its picker, or null when it can. An id not in the
 * voice list (deleted) is not judged here.
 */
export function unspeakableVoiceMessage(
  voiceId: string,
  voices: readonly (SpeakingVoice & Pick<VoiceResponse, 'name'>)[],
  models: readonly (SpeakingModel & Pick<ModelResponse, 'name'>)[],
  modelId: string,
): string | null {
  const voice = voices.find((v) => v.voice_id === voiceId);
  const model = models.find((m) => m.model_id === modelId);
  if (!voice || !model || modelSpeaksVoice(model, voice)) return null;
  return `${model.name} cannot speak with ${voice.name}. Pick one of the voices it speaks.`;
}

/**
 * What `chapters.update` sends: each block with its id (the server keeps it, so an unchanged one is not
 * spoken again) and its nodes; empty nodes go, neighbours in one voice join, and a block left with no
 * text goes too.
 */
export function toBlockInputs(blocks: readonly DraftBlock[]): StudioBlockInput[] {
  const out: StudioBlockInput[] = [];
  for (const block of blocks) {
    const nodes = mergeNodes(block.nodes);
    if (nodes.length === 0) continue;
    out.push({
      sub_type: block.sub_type,
      ...(block.block_id ? { block_id: block.block_id } : {}),
      nodes: nodes.map((node) => ({ type: 'tts_node' as const, text: node.text, voice_id: node.voice_id })),
    });
  }
  return out;
}

/** Drops empty nodes and joins neighbours spoken in the same voice. */
export function mergeNodes(nodes: readonly DraftNode[]): DraftNode[] {
  const out: DraftNode[] = [];
  for (const node of nodes) {
    if (node.text === '') continue;
    const last = out.at(-1);
    if (last && last.voice_id === node.voice_id) last.text += node.text;
    else out.push({ ...node });
  }
  return out;
}

/**
 * Gives `voiceId` to the characters `start`–`end` of node `nodeIndex` (a selection inside one node): the
 * node splits into up to three, the middle one in the new voice. An empty selection changes the whole node.
 */
export function setVoiceOfSelection(
  nodes: readonly DraftNode[],
  nodeIndex: number,
  start: number,
  end: number,
  voiceId: string,
): DraftNode[] {
  const node = nodes[nodeIndex];
  if (!node) return [...nodes];
  const from = Math.max(0, Math.min(start, end, node.text.length));
  const to = Math.min(node.text.length, Math.max(start, end));
  const pieces: DraftNode[] =
    from === to
      ? [{ text: node.text, voice_id: voiceId }]
      : [
          { text: node.text.slice(0, from), voice_id: node.voice_id },
          { text: node.text.slice(from, to), voice_id: voiceId },
          { text: node.text.slice(to), voice_id: node.voice_id },
        ];
  return mergeNodes([...nodes.slice(0, nodeIndex), ...pieces, ...nodes.slice(nodeIndex + 1)]);
}

/** The pause tag the speech pipeline honours (SSML `<break>`), in seconds. */
export function breakTag(seconds: number): string {
  return `<break time="${Number(seconds.toFixed(2))}s" />`;
}

/** Inserts a pause at `at` in `text`, with a space either side where the text has none. */
export function insertBreak(text: string, at: number, seconds: number): { text: string; caret: number } {
  const where = Math.max(0, Math.min(at, text.length));
  const before = text.slice(0, where);
  const after = text.slice(where);
  const tag = `${before === '' || /\s$/.test(before) ? '' : ' '}${breakTag(seconds)}${after === '' || /^\s/.test(after) ? '' : ' '}`;
  return { text: before + tag + after, caret: where + tag.length };
}

export function blockText(block: Pick<DraftBlock, 'nodes'>): string {
  return block.nodes.map((node) => node.text).join('');
}

/**
 * Where each block starts and ends in a chapter's audio, from the snapshot's character alignment: the
 * blocks' characters are spoken in order, so a block's share of the text is its share of the alignment's
 * characters (in proportion: the alignment may count characters a little differently from the text, e.g.
 * a pause tag). `null` when there is no alignment.
 */
export function blockTimes(
  blocks: readonly Pick<DraftBlock, 'nodes'>[],
  alignments: readonly CharacterAlignmentModel[],
): { start: number; end: number }[] | null {
  const starts = alignments.flatMap((a) => a.character_start_times_seconds);
  const ends = alignments.flatMap((a) => a.character_end_times_seconds);
  if (starts.length === 0) return null;
  const lengths = blocks.map((block) => blockText(block).length);
  const total = lengths.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const times: { start: number; end: number }[] = [];
  let offset = 0;
  for (const length of lengths) {
    // Multiplied before divided: (4 / 6) * 6 is not 4 in floating point.
    const first = Math.min(starts.length - 1, Math.floor((offset * starts.length) / total));
    const last = Math.min(
      ends.length - 1,
      Math.max(first, Math.ceil(((offset + length) * ends.length) / total) - 1),
    );
    times.push({ start: starts[first] ?? 0, end: ends[last] ?? 0 });
    offset += length;
  }
  return times;
}

/** The block being spoken at `seconds` (the last that started by then), or -1 before the first. */
export function blockAt(times: readonly { start: number; end: number }[] | null, seconds: number): number {
  if (!times) return -1;
  let found = -1;
  for (let i = 0; i < times.length; i += 1) {
    const time = times[i];
    if (time && time.start <= seconds + 1e-6) found = i;
    else break;
  }
  return found;
}

/** A conversion's share done, 0–1, from a progress event (the chapters' mean; one chapter when asked). */
export function progressShare(event: StudioProgressEvent, chapterId?: string): number | null {
  const chapters = chapterId ? event.chapters.filter((c) => c.chapter_id === chapterId) : event.chapters;
  const converting = chapters.filter((c) => c.state === 'converting');
  if (converting.length === 0) return event.state === 'converting' ? null : 1;
  const shares = chapters.map((c) => (c.state === 'converting' ? (c.conversion_progress ?? 0) : 1));
  return shares.reduce((sum, n) => sum + n, 0) / shares.length;
}

/**
 * Reads server-sent events from chunks of text: feed it each chunk; it answers the complete events
 * (`event` name and joined `data` lines) and keeps the rest for the next chunk. Comment lines are skipped.
 */
export function createSseReader(): (chunk: string) => { event: string; data: string }[] {
  let buffer = '';
  return (chunk) => {
    buffer += chunk.replace(/\r\n?/g, '\n');
    const out: { event: string; data: string }[] = [];
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const raw = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of raw.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) out.push({ event, data: data.join('\n') });
      end = buffer.indexOf('\n\n');
    }
    return out;
  };
}

/** Whether a project is being made or converted (the list then follows its progress). */
export function isBusy(project: Pick<StudioProject, 'state'>): boolean {
  return project.state !== 'default';
}

export const STUDIO_STATE_LABELS: Record<StudioProject['state'], string> = {
  creating: 'Importing',
  default: 'Ready',
  converting: 'Converting',
  in_queue: 'In queue',
};

/** The keyboard shortcuts of the editor (shown in its help menu). */
export const STUDIO_SHORTCUTS = [
  { keys: 'Ctrl+Space / Alt+Space', action: 'Play or pause from the paragraph with the cursor' },
  {
    keys: 'Ctrl+Enter / ⌘+Enter',
    action: 'Save and regenerate the chapter (only changed paragraphs are spoken again)',
  },
  { keys: 'Ctrl+S / ⌘+S', action: 'Save the chapter' },
] as const;

export function isPlayShortcut(
  event: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'altKey' | 'metaKey'>,
) {
  return (event.code === 'Space' || event.key === ' ') && (event.ctrlKey || event.altKey) && !event.metaKey;
}
export function isRegenerateShortcut(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey'> & { isComposing?: boolean },
) {
  return event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.isComposing;
}
export function isSaveShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey'>) {
  return event.key.toLowerCase() === 's' && (event.ctrlKey || event.metaKey);
}

/** A file name from a project's or chapter's name: letters, digits, `_ .-`. */
export function safeFileName(name: string, fallback = 'studio'): string {
  return (
    name
      .replace(/[^\p{L}\p{M}\p{N}_ .-]+/gu, '')
      .trim()
      .replace(/\s+/g, '_')
      .slice(0, 80) || fallback
  );
}
