import {
  type ModelResponse,
  STUDIO_BLOCK_SUB_TYPES,
  type StudioBlockSubType,
  type StudioChapterWithContent,
  type StudioProjectExtended,
  type VoiceResponse,
} from '@parla/contracts';
import { clsx } from 'clsx';
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { FormMessage, inputClasses, textareaClasses } from '../../../ui/field';
import { PauseIcon, PlayIcon, RefreshIcon, TrashIcon } from '../../../ui/icons';
import { LoadError } from '../../../ui/load-error';
import { ProgressBar } from '../../../ui/progress-bar';
import { Skeleton } from '../../../ui/skeleton';
import { usePlayer } from '../../player';
import { VoicePicker } from '../../voices';
import {
  fetchChapterSnapshotAudio,
  getChapterSnapshot,
  useChapterSnapshots,
  useConvertStudioChapter,
  useStudioChapter,
  useUpdateStudioChapter,
} from '../api/studio-api';
import {
  blockAt,
  blockModelId,
  blockTimes,
  type DraftBlock,
  defaultVoiceOf,
  insertBreak,
  isHeading,
  isPlayShortcut,
  isRegenerateShortcut,
  isSaveShortcut,
  newBlockKey,
  setVoiceOfSelection,
  toBlockInputs,
  toDraftBlocks,
  unspeakableVoiceMessage,
  voicesForModel,
} from '../studio-rules';
import { AcxReportPanel } from './acx-report';
import { ChapterSnapshots } from './chapter-snapshots';

const KIND_LABELS: Record<StudioBlockSubType, string> = {
  p: 'Paragraph',
  h1: 'Heading 1',
  h2: 'Heading 2',
  h3: 'Heading 3',
};
const PAUSES = [0.5, 1, 2, 3] as const;

interface Caret {
  blockKey: string;
  nodeIndex: number;
  start: number;
  end: number;
}

/** What the player is playing for this chapter: the snapshot, and where its paragraphs start. */
interface Loaded {
  snapshotId: string;
  times: { start: number; end: number }[] | null;
}

export interface ChapterEditorProps {
  project: StudioProjectExtended;
  chapterId: string;
  voices: readonly VoiceResponse[];
  /** The speech models (`GET /v1/models`): a block's pickers offer only the voices its model speaks. */
  models: readonly ModelResponse[];
  /** The chapter's conversion: its share done while it runs (from the progress events), else null. */
  converting: boolean;
  progress: number | null;
  /** A conversion was started here: the page opens the progress stream. */
  onConverting: () => void;
}

/**
 * One chapter's document (issue 30 item 3): its paragraphs and headings, each with its voice chips (a
 * node per voice; select text and change its voice to split it), pauses, edits saved with `chapters.update`,
 * play from the cursor in the bottom player with the paragraph being spoken highlighted, and regenerate
 * (a conversion of the chapter: the server speaks again only the paragraphs that changed).
 */
export function ChapterEditor(props: ChapterEditorProps) {
  const chapter = useStudioChapter(props.project.project_id, props.chapterId);
  if (chapter.isPending)
    return (
      <div role="status" aria-label="Loading the chapter" className="flex flex-col gap-3">
        <Skeleton className="h-6 w-1/3" />
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-20 w-full" />
      </div>
    );
  if (chapter.isError) return <LoadError error={chapter.error} onRetry={() => void chapter.refetch()} />;
  return <ChapterDocument key={`${chapter.data.chapter_id}`} {...props} chapter={chapter.data} />;
}

function ChapterDocument({
  project,
  chapter,
  voices,
  models,
  converting,
  progress,
  onConverting,
}: ChapterEditorProps & { chapter: StudioChapterWithContent }) {
  const id = useId();
  const { toast, toastError } = useToast();
  const player = usePlayer();
  const projectId = project.project_id;
  const update = useUpdateStudioChapter(projectId);
  const convert = useConvertStudioChapter(projectId);
  const snapshots = useChapterSnapshots(projectId, chapter.chapter_id);
  const latestSnapshotId = snapshots.data?.snapshots[0]?.chapter_snapshot_id ?? null;

  const [blocks, setBlocks] = useState<DraftBlock[]>(() => toDraftBlocks(chapter));
  const [saved, setSaved] = useState(() => JSON.stringify(toBlockInputs(toDraftBlocks(chapter))));
  const dirty = JSON.stringify(toBlockInputs(blocks)) !== saved;
  const [caret, setCaret] = useState<Caret | null>(null);
  const [pause, setPause] = useState<number>(1);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [playError, setPlayError] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);
  const textareas = useRef(new Map<string, HTMLTextAreaElement>());
  /** The object URL of the audio last handed to the player: let go when the next one replaces it. */
  const audioUrl = useRef<string | null>(null);
  const audioUrlOf = useCallback((audio: Blob) => {
    if (audioUrl.current) URL.revokeObjectURL(audioUrl.current);
    audioUrl.current = URL.createObjectURL(audio);
    return audioUrl.current;
  }, []);

  // A conversion that ends with this chapter saved: its newest content comes back from the server.
  // Only a new answer from the server replaces the draft, and only when nothing is unsaved.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above.
  useEffect(() => {
    if (!dirty) {
      setBlocks(toDraftBlocks(chapter));
      setSaved(JSON.stringify(toBlockInputs(toDraftBlocks(chapter))));
    }
  }, [chapter]);

  // A block speaks with its model or the project's: its pickers offer the voices that model speaks, and a
  // voice it cannot speak (chosen under another model) is flagged until it is changed.
  const voicesOf = (block: DraftBlock) => voicesForModel(voices, models, blockModelId(block, project));
  const problemsOf = (block: DraftBlock) => [
    ...new Set(
      block.nodes.flatMap((node) => {
        const problem = unspeakableVoiceMessage(node.voice_id, voices, models, blockModelId(block, project));
        return problem ? [problem] : [];
      }),
    ),
  ];
  const voiceName = (voiceId: string) => voices.find((v) => v.voice_id === voiceId)?.name ?? voiceId;

  // ---- The bottom player ---------------------------------------------------------------------------------
  const here =
    loaded !== null && player.state.item?.type === 'studio' && player.state.item.id === loaded.snapshotId;
  const playing = here && player.state.status === 'playing';
  const [activeBlock, setActiveBlock] = useState(-1);
  useEffect(() => {
    if (!here || !loaded) {
      setActiveBlock(-1);
      return;
    }
    if (!playing) {
      setActiveBlock(blockAt(loaded.times, player.state.currentTime));
      return;
    }
    let frame = 0;
    const tick = () => {
      setActiveBlock(blockAt(loaded.times, player.getCurrentTime()));
      frame = requestAnimationFrame(tick);
    };
    tick();
    return () => cancelAnimationFrame(frame);
  }, [here, playing, loaded, player.state.currentTime, player.getCurrentTime]);

  const pendingSeek = useRef<number | null>(null);
  const canSeek = here && ['ready', 'playing', 'paused', 'ended'].includes(player.state.status);
  useEffect(() => {
    if (!canSeek || pendingSeek.current === null) return;
    player.seekTo(pendingSeek.current);
    pendingSeek.current = null;
    if (player.state.status !== 'playing') player.resume();
  }, [canSeek, player]);

  const caretBlockIndex = caret ? blocks.findIndex((b) => b.key === caret.blockKey) : -1;

  const playFromCursor = useCallback(async () => {
    setPlayError(null);
    if (playing) {
      player.pause();
      return;
    }
    if (!latestSnapshotId) {
      setPlayError('This chapter has no audio yet. Convert it first.');
      return;
    }
    const from = Math.max(0, caretBlockIndex);
    if (here && loaded) {
      player.seekTo(loaded.times?.[from]?.start ?? 0);
      player.resume();
      return;
    }
    setPreparing(true);
    try {
      const [snapshot, audio] = await Promise.all([
        getChapterSnapshot(projectId, chapter.chapter_id, latestSnapshotId),
        fetchChapterSnapshotAudio(projectId, chapter.chapter_id, latestSnapshotId),
      ]);
      const times = blockTimes(blocks, snapshot.character_alignments);
      setLoaded({ snapshotId: latestSnapshotId, times });
      pendingSeek.current = times?.[from]?.start ?? 0;
      player.play(
        {
          id: latestSnapshotId,
          fileName: `${chapter.name}.mp3`,
          type: 'studio',
          loaded: true,
          player: {
            title: chapter.name,
            description: project.name,
            duration: Math.round(snapshot.audio_duration_secs * 1000),
          },
          autoStart: false,
        },
        { kind: 'url', url: audioUrlOf(audio) },
      );
    } catch (error) {
      setPlayError(getToastMessage(error));
    } finally {
      setPreparing(false);
    }
  }, [
    playing,
    player,
    latestSnapshotId,
    caretBlockIndex,
    here,
    loaded,
    projectId,
    chapter,
    blocks,
    project.name,
    audioUrlOf,
  ]);

  // ---- Editing -------------------------------------------------------------------------------------------
  const patchBlock = (key: string, patch: (block: DraftBlock) => DraftBlock) =>
    setBlocks((current) => current.map((b) => (b.key === key ? patch(b) : b)));

  const save = useCallback(async (): Promise<boolean> => {
    if (!dirty) return true;
    const inputs = toBlockInputs(blocks);
    try {
      const answer = await update.mutateAsync({ chapterId: chapter.chapter_id, blocks: inputs });
      setBlocks(toDraftBlocks(answer.chapter));
      setSaved(JSON.stringify(toBlockInputs(toDraftBlocks(answer.chapter))));
      return true;
    } catch (error) {
      toastError(error);
      return false;
    }
  }, [dirty, blocks, update, chapter.chapter_id, toastError]);

  const regenerate = useCallback(async () => {
    if (!(await save())) return;
    convert.mutate(chapter.chapter_id, {
      onSuccess: () => {
        onConverting();
        toast({
          title: 'Converting the chapter',
          description: 'Only the paragraphs that changed are spoken again.',
        });
      },
      onError: (error) => toastError(error),
    });
  }, [save, convert, chapter.chapter_id, onConverting, toast, toastError]);

  const onKeyDown = (event: KeyboardEvent) => {
    // Keys typed in a dialog opened from here (a voice picker, a portal) bubble through React: not ours.
    if (!event.currentTarget.contains(event.target as Node)) return;
    if (isPlayShortcut(event)) {
      event.preventDefault();
      void playFromCursor();
    } else if (isRegenerateShortcut({ ...event, isComposing: event.nativeEvent.isComposing })) {
      event.preventDefault();
      void regenerate();
    } else if (isSaveShortcut(event)) {
      event.preventDefault();
      void save().then((ok) => ok && toast({ title: 'Chapter saved', variant: 'success' }));
    }
  };

  const selectionBlock = caret ? blocks.find((b) => b.key === caret.blockKey) : undefined;
  const selectionNode = selectionBlock?.nodes[caret?.nodeIndex ?? 0];
  const hasSelection = caret !== null && caret.start !== caret.end;

  const changeSelectionVoice = (voice: VoiceResponse) => {
    if (!caret) return;
    patchBlock(caret.blockKey, (block) => ({
      ...block,
      nodes: setVoiceOfSelection(block.nodes, caret.nodeIndex, caret.start, caret.end, voice.voice_id),
    }));
    setCaret(null);
  };

  const insertPause = () => {
    if (!caret || !selectionNode) return;
    const next = insertBreak(selectionNode.text, caret.end, pause);
    patchBlock(caret.blockKey, (block) => ({
      ...block,
      nodes: block.nodes.map((n, i) => (i === caret.nodeIndex ? { ...n, text: next.text } : n)),
    }));
    const target = textareas.current.get(`${caret.blockKey}:${caret.nodeIndex}`);
    setCaret({ ...caret, start: next.caret, end: next.caret });
    requestAnimationFrame(() => {
      target?.focus();
      target?.setSelectionRange(next.caret, next.caret);
    });
  };

  const addBlock = (subType: StudioBlockSubType) =>
    setBlocks((current) => [
      ...current,
      {
        key: newBlockKey(),
        block_id: null,
        sub_type: subType,
        nodes: [{ text: '', voice_id: defaultVoiceOf(subType, project) }],
      },
    ]);

  const busy = converting || convert.isPending;

  return (
    // The shortcuts work anywhere in the chapter, the text fields included; none is a typing key.
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys are handled for the fields inside.
    <div className="flex min-w-0 flex-col gap-4" onKeyDown={onKeyDown}>
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={() => void playFromCursor()} disabled={preparing} aria-keyshortcuts="Control+Space">
          {playing ? <PauseIcon /> : <PlayIcon />}
          {playing ? 'Pause' : preparing ? 'Loading…' : 'Play from cursor'}
        </Button>
        <Button
          variant="secondary"
          onClick={() => void regenerate()}
          disabled={busy || update.isPending}
          aria-keyshortcuts="Control+Enter Meta+Enter"
        >
          <RefreshIcon />
          {busy ? 'Converting…' : 'Regenerate chapter'}
        </Button>
        <Button variant="secondary" onClick={() => void save()} disabled={!dirty || update.isPending}>
          {update.isPending ? 'Saving…' : dirty ? 'Save' : 'Saved'}
        </Button>
      </div>
      {busy && <ProgressBar label={`Converting ${chapter.name}`} value={progress} />}
      {chapter.last_conversion_error && !busy && <FormMessage>{chapter.last_conversion_error}</FormMessage>}
      {playError && <FormMessage>{playError}</FormMessage>}

      <div
        role="toolbar"
        aria-label="Selection"
        className="sticky top-0 z-10 flex flex-wrap items-end gap-2 rounded-lg border border-line bg-surface p-2"
      >
        <div className="w-56 max-w-full min-w-0">
          <VoicePicker
            compact
            label={hasSelection ? 'Voice of the selected text' : 'Voice of the text at the cursor'}
            disabled={!caret}
            voices={selectionBlock ? voicesOf(selectionBlock) : voices}
            selected={voices.find((v) => v.voice_id === selectionNode?.voice_id)}
            onSelect={changeSelectionVoice}
          />
        </div>
        <div className="flex items-center gap-1">
          <label htmlFor={`${id}-pause`} className="sr-only">
            Pause length
          </label>
          <div className="w-20 shrink-0">
            {' '}
            <select
              id={`${id}-pause`}
              className={clsx(inputClasses, 'h-9 py-1')}
              value={pause}
              onChange={(event) => setPause(Number(event.target.value))}
            >
              {PAUSES.map((s) => (
                <option key={s} value={s}>
                  {s} s
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" size="sm" onClick={insertPause} disabled={!caret}>
            Insert pause
          </Button>
        </div>
        <p className="basis-full text-xs text-fg-muted">
          {caret
            ? hasSelection
              ? 'Pick a voice to speak the selected words in it.'
              : 'Pick a voice for this part of the paragraph, or insert a pause at the cursor.'
            : 'Put the cursor in a paragraph, or select words, to change their voice or add a pause.'}
        </p>
      </div>

      {blocks.length === 0 && (
        <p className="rounded-lg border border-line border-dashed p-6 text-center text-sm text-fg-muted">
          This chapter is empty. Add a heading or a paragraph to start.
        </p>
      )}
      <ol aria-label="Paragraphs" className="flex flex-col gap-3">
        {blocks.map((block, index) => {
          const offered = voicesOf(block);
          const problems = problemsOf(block);
          return (
            <li
              key={block.key}
              aria-current={index === activeBlock ? 'true' : undefined}
              className={clsx(
                'flex flex-col gap-2 rounded-lg border p-3 transition-colors',
                index === activeBlock ? 'border-accent bg-accent/10' : 'border-line bg-surface',
              )}
            >
              <div className="flex flex-wrap items-center gap-2">
                <label htmlFor={`${id}-${block.key}-kind`} className="sr-only">
                  Kind of paragraph {index + 1}
                </label>
                <div className="w-32 shrink-0">
                  {' '}
                  <select
                    id={`${id}-${block.key}-kind`}
                    className={clsx(inputClasses, 'h-8 py-0 text-xs')}
                    value={block.sub_type}
                    onChange={(event) =>
                      patchBlock(block.key, (b) => ({
                        ...b,
                        sub_type: event.target.value as StudioBlockSubType,
                      }))
                    }
                  >
                    {STUDIO_BLOCK_SUB_TYPES.map((kind) => (
                      <option key={kind} value={kind}>
                        {KIND_LABELS[kind]}
                      </option>
                    ))}
                  </select>
                </div>
                {block.nodes.map((node, nodeIndex) => (
                  <div
                    // biome-ignore lint/suspicious/noArrayIndexKey: a node is its place in the block.
                    key={nodeIndex}
                    className="w-44 max-w-full min-w-0"
                  >
                    <VoicePicker
                      compact
                      label={`Voice of paragraph ${index + 1}${block.nodes.length > 1 ? `, part ${nodeIndex + 1}` : ''}`}
                      voices={offered}
                      selected={voices.find((v) => v.voice_id === node.voice_id)}
                      invalid={!offered.some((v) => v.voice_id === node.voice_id) && problems.length > 0}
                      onSelect={(voice) =>
                        patchBlock(block.key, (b) => ({
                          ...b,
                          nodes: setVoiceOfSelection(b.nodes, nodeIndex, 0, 0, voice.voice_id),
                        }))
                      }
                    />
                  </div>
                ))}
                <Button
                  variant="ghost"
                  size="icon"
                  className="ml-auto"
                  aria-label={`Delete paragraph ${index + 1}`}
                  onClick={() => setBlocks((current) => current.filter((b) => b.key !== block.key))}
                >
                  <TrashIcon />
                </Button>
              </div>
              {problems.map((problem) => (
                <FormMessage key={problem}>{problem}</FormMessage>
              ))}
              {block.nodes.map((node, nodeIndex) => (
                <div
                  // biome-ignore lint/suspicious/noArrayIndexKey: a node is its place in the block.
                  key={nodeIndex}
                  className="flex min-w-0 flex-col gap-1"
                >
                  {block.nodes.length > 1 && (
                    <span className="text-xs text-fg-muted">{voiceName(node.voice_id)}</span>
                  )}
                  <textarea
                    ref={(element) => {
                      const mapKey = `${block.key}:${nodeIndex}`;
                      if (element) textareas.current.set(mapKey, element);
                      else textareas.current.delete(mapKey);
                    }}
                    aria-label={`Text of paragraph ${index + 1}${block.nodes.length > 1 ? `, part ${nodeIndex + 1} (${voiceName(node.voice_id)})` : ''}`}
                    className={clsx(
                      textareaClasses,
                      'field-sizing-content min-h-0 resize-y',
                      isHeading(block.sub_type) && 'font-semibold text-base',
                    )}
                    rows={Math.max(1, Math.ceil(node.text.length / 90))}
                    value={node.text}
                    onChange={(event) => {
                      const text = event.target.value;
                      patchBlock(block.key, (b) => ({
                        ...b,
                        nodes: b.nodes.map((n, i) => (i === nodeIndex ? { ...n, text } : n)),
                      }));
                    }}
                    onSelect={(event) =>
                      setCaret({
                        blockKey: block.key,
                        nodeIndex,
                        start: event.currentTarget.selectionStart,
                        end: event.currentTarget.selectionEnd,
                      })
                    }
                    onFocus={(event) =>
                      setCaret({
                        blockKey: block.key,
                        nodeIndex,
                        start: event.currentTarget.selectionStart,
                        end: event.currentTarget.selectionEnd,
                      })
                    }
                  />
                </div>
              ))}
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => addBlock('p')}>
          Add paragraph
        </Button>
        <Button variant="secondary" size="sm" onClick={() => addBlock('h2')}>
          Add heading
        </Button>
      </div>

      <ChapterSnapshots
        project={project}
        chapter={chapter}
        snapshots={snapshots}
        onPlay={async (snapshotId) => {
          setPlayError(null);
          try {
            const [snapshot, audio] = await Promise.all([
              getChapterSnapshot(projectId, chapter.chapter_id, snapshotId),
              fetchChapterSnapshotAudio(projectId, chapter.chapter_id, snapshotId),
            ]);
            setLoaded({ snapshotId, times: blockTimes(blocks, snapshot.character_alignments) });
            player.play(
              {
                id: snapshotId,
                fileName: `${chapter.name}.mp3`,
                type: 'studio',
                loaded: true,
                player: {
                  title: chapter.name,
                  description: snapshot.name,
                  duration: Math.round(snapshot.audio_duration_secs * 1000),
                },
                autoStart: true,
              },
              { kind: 'url', url: audioUrlOf(audio) },
            );
          } catch (error) {
            setPlayError(getToastMessage(error));
          }
        }}
      />
      <AcxReportPanel projectId={projectId} chapterId={chapter.chapter_id} snapshotId={latestSnapshotId} />
    </div>
  );
}
