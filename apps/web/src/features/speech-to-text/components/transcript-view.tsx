import { clsx } from 'clsx';
import { type KeyboardEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { inputClasses } from '../../../ui/field';
import {
  ArrowDownIcon,
  ArrowUpIcon,
  CopyIcon,
  PauseIcon,
  PlayIcon,
  ShareIcon,
  TrashIcon,
} from '../../../ui/icons';
import { Switch } from '../../../ui/switch';
import { usePlayer } from '../../player';
import { useDeleteTranscript } from '../api/delete-transcript';
import type { TranscriptDetails, TranscriptResponse } from '../api/types';
import { useUpdateTranscript } from '../api/update-transcript';
import {
  formatTimestamp,
  groupParagraphs,
  hasTimestamps,
  isRenameableSpeaker,
  listSpeakers,
  searchTranscript,
  speakerColour,
  speakerName,
  sttLanguageName,
  toViewWords,
  transcriptChunks,
  transcriptPlainText,
  type ViewWord,
} from '../stt-rules';
import { transcriptPlayback } from '../transcript-playback';
import { useActiveWord } from '../use-active-word';
import { EditableName } from './editable-name';
import { ExportMenu } from './export-menu';
import { TranscriptWords } from './transcript-words';

export interface TranscriptViewProps {
  details: TranscriptDetails;
  transcript: TranscriptResponse;
  /** The transcript is deleted: the page goes back to the list. */
  onDeleted: () => void;
  /** Opens the workspace's share dialog for the transcript (history/voices §7 resource sharing). */
  onShare?: (() => void) | undefined;
}

/**
 * A completed transcript (issue 19 item 6): its title and speakers (renamed here), the words in paragraphs
 * by speaker, highlighted in step with its recording in the bottom player; a word plays from there; search
 * with its matches counted and stepped through; export, copy and delete.
 */
export function TranscriptView({ details, transcript, onDeleted, onShare }: TranscriptViewProps) {
  const id = useId();
  const { toast, toastError } = useToast();
  const player = usePlayer();
  const update = useUpdateTranscript(details.transcription_id);
  const remove = useDeleteTranscript();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const words = useMemo(() => toViewWords(transcript), [transcript]);
  const paragraphs = useMemo(() => groupParagraphs(words), [words]);
  const speakers = useMemo(() => listSpeakers(words), [words]);
  const timed = hasTimestamps(words);
  const names = details.speaker_names;

  // The bottom player and this transcript's recording.
  const loaded =
    player.state.item?.type === 'transcript' && player.state.item.id === details.transcription_id;
  const playing = loaded && player.state.status === 'playing';
  const activeIndex = useActiveWord(words, {
    loaded,
    playing,
    restingTime: player.state.currentTime,
    readTime: player.getCurrentTime,
  });
  /** A seek asked for before the recording was in the player: done once it can play. */
  const pendingSeek = useRef<number | null>(null);
  const canSeek = loaded && ['ready', 'playing', 'paused', 'ended'].includes(player.state.status);
  useEffect(() => {
    if (!canSeek || pendingSeek.current === null) return;
    player.seekTo(pendingSeek.current);
    pendingSeek.current = null;
  }, [canSeek, player]);

  const playerRef = useRef(player);
  playerRef.current = player;
  const load = useCallback(
    (autoStart: boolean) => playerRef.current.play(...transcriptPlayback(details, autoStart)),
    [details],
  );
  const togglePlay = () => {
    if (!loaded) load(true);
    else if (playing) player.pause();
    else player.resume();
  };
  const seekToWord = useCallback(
    (word: ViewWord) => {
      if (word.start === null) return;
      const current = playerRef.current;
      const here =
        current.state.item?.type === 'transcript' && current.state.item.id === details.transcription_id;
      if (here && current.state.status !== 'loading' && current.state.status !== 'idle') {
        current.seekTo(word.start);
        if (current.state.status !== 'playing') current.resume();
        return;
      }
      pendingSeek.current = word.start;
      if (!here || current.state.status === 'idle') load(true);
    },
    [details.transcription_id, load],
  );

  // The transcript's one tab stop.
  const [focusIndex, setFocusIndex] = useState(0);
  const [follow, setFollow] = useState(true);

  // Search inside the transcript.
  const [query, setQuery] = useState('');
  const matches = useMemo(() => searchTranscript(words, query), [words, query]);
  const [matchAt, setMatchAt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query starts from its first match.
  useEffect(() => setMatchAt(0), [query]);
  const currentMatch = matches.length > 0 ? (matches[Math.min(matchAt, matches.length - 1)] ?? null) : null;
  const matchedWords = useMemo(() => {
    const set = new Set<number>();
    for (const match of matches) for (let i = match.first; i <= match.last; i += 1) set.add(i);
    return set;
  }, [matches]);
  const step = (by: number) => {
    if (matches.length === 0) return;
    const next = (matchAt + by + matches.length) % matches.length;
    setMatchAt(next);
    const match = matches[next];
    if (match) setFocusIndex(match.first);
  };
  const handleSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    step(event.shiftKey ? -1 : 1);
  };

  const copyText = () => {
    const text = transcriptPlainText(words, paragraphs, names);
    const clipboard = navigator.clipboard;
    if (!clipboard) {
      toastError(new Error('The clipboard is not available in this browser.'));
      return;
    }
    clipboard.writeText(text).then(
      () => toast({ title: 'Transcript copied', variant: 'success' }),
      (error: unknown) => toastError(error),
    );
  };

  const rename = (changes: Parameters<typeof update.mutateAsync>[0]) =>
    update.mutateAsync(changes).catch((error: unknown) => {
      toastError(error);
      throw error;
    });

  const handleDelete = () =>
    remove.mutate(details.transcription_id, {
      onSuccess: () => {
        if (loaded) player.stop();
        toast({ title: 'Transcript deleted', variant: 'success' });
        onDeleted();
      },
      onError: (error) => toastError(error),
    });

  const languageCode = transcriptChunks(transcript)[0]?.language_code ?? details.language_code;
  const facts = [
    sttLanguageName(languageCode),
    details.audio_duration_secs !== null ? formatTimestamp(details.audio_duration_secs) : null,
    speakers.length > 0 ? `${speakers.length} ${speakers.length === 1 ? 'speaker' : 'speakers'}` : null,
    formatDate(fromUnixSeconds(details.created_at_unix)),
  ].filter(Boolean);

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-3">
        <Link to="/app/speech-to-text" className="w-fit text-sm font-medium text-fg-muted hover:text-fg">
          ← All transcripts
        </Link>
        <EditableName label="Title" value={details.name} onSave={(name) => rename({ name })}>
          <h1 className="min-w-0 text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
            {details.name}
          </h1>
        </EditableName>
        <p className="text-sm text-fg-muted tabular-nums">{facts.join(' · ')}</p>
        <div className="flex flex-wrap items-center gap-2">
          <Button size="sm" onClick={togglePlay} disabled={loaded && player.state.status === 'loading'}>
            {playing ? <PauseIcon /> : <PlayIcon />}
            {playing ? 'Pause' : loaded && player.state.status === 'loading' ? 'Loading…' : 'Play'}
          </Button>
          <ExportMenu
            transcriptionId={details.transcription_id}
            name={details.name}
            withSpeakers={speakers.length > 0}
          />
          <Button variant="secondary" size="sm" onClick={copyText}>
            <CopyIcon />
            Copy text
          </Button>
          {onShare && (
            <Button variant="secondary" size="sm" onClick={onShare}>
              <ShareIcon />
              Share
            </Button>
          )}
          <Button
            variant="ghost"
            size="sm"
            className="text-danger hover:text-danger"
            onClick={() => setConfirmDelete(true)}
          >
            <TrashIcon />
            Delete
          </Button>
        </div>
      </header>

      <div
        className={clsx(
          'grid grid-cols-1 gap-6',
          speakers.length > 0 && 'lg:grid-cols-[minmax(0,1fr)_18rem]',
        )}
      >
        <Card className="order-2 flex min-w-0 flex-col lg:order-1">
          <div className="flex flex-col gap-3 border-b border-line px-4 py-3 sm:px-5">
            <search className="flex items-center gap-2">
              <label htmlFor={`${id}-find`} className="sr-only">
                Find in transcript
              </label>
              <input
                id={`${id}-find`}
                type="search"
                value={query}
                maxLength={200}
                placeholder="Find in transcript"
                onChange={(event) => setQuery(event.target.value)}
                onKeyDown={handleSearchKey}
                aria-describedby={`${id}-count`}
                className={clsx(inputClasses, 'h-9 min-w-0 flex-1')}
              />
              <p
                id={`${id}-count`}
                aria-live="polite"
                className="shrink-0 text-sm text-fg-muted tabular-nums"
              >
                {query.trim() === ''
                  ? ''
                  : matches.length === 0
                    ? 'No matches'
                    : `${Math.min(matchAt, matches.length - 1) + 1} of ${matches.length}`}
              </p>
              <div className="flex shrink-0 gap-1">
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label="Previous match"
                  disabled={matches.length === 0}
                  onClick={() => step(-1)}
                >
                  <ArrowUpIcon />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label="Next match"
                  disabled={matches.length === 0}
                  onClick={() => step(1)}
                >
                  <ArrowDownIcon />
                </Button>
              </div>
            </search>
            {timed && (
              <Switch
                label="Follow playback"
                checked={follow}
                onCheckedChange={setFollow}
                className="w-fit [&>label]:justify-start"
              />
            )}
          </div>
          <div className="px-4 py-5 sm:px-5">
            <p id={`${id}-keys`} className="sr-only">
              {timed
                ? 'Use the arrow keys to move between words and paragraphs, and Enter to play from a word.'
                : 'Use the arrow keys to move between words and paragraphs.'}
            </p>
            {words.length === 0 ? (
              <p className="py-10 text-center text-sm text-fg-muted">
                No speech was found in this recording.
              </p>
            ) : (
              <TranscriptWords
                words={words}
                paragraphs={paragraphs}
                speakers={speakers}
                speakerNames={names}
                activeIndex={activeIndex}
                focusIndex={focusIndex}
                onFocusIndexChange={setFocusIndex}
                matchedWords={matchedWords}
                currentMatch={currentMatch}
                onSeek={timed ? seekToWord : undefined}
                follow={follow && playing}
                describedBy={`${id}-keys`}
              />
            )}
            {!timed && words.length > 0 && (
              <p className="mt-6 text-xs text-fg-muted">
                This transcript was made without timestamps, so it cannot follow the recording.
              </p>
            )}
          </div>
        </Card>

        {speakers.length > 0 && (
          <aside aria-label="Speakers" className="order-1 flex flex-col gap-3 lg:order-2">
            <Card className="flex flex-col gap-3 p-4">
              <h2 className="text-sm font-semibold">Speakers</h2>
              <ul className="flex flex-col gap-2">
                {speakers.map((speaker, index) => (
                  <li key={speaker} className="flex min-h-8 min-w-0 items-center gap-2">
                    <span
                      aria-hidden="true"
                      className={clsx('size-2.5 shrink-0 rounded-full', speakerColour(index).dot)}
                    />
                    {isRenameableSpeaker(speaker) ? (
                      <EditableName
                        label={`Name of ${speakerName(speaker, {})}`}
                        value={names[speaker] ?? ''}
                        allowEmpty
                        maxLength={100}
                        onSave={(name) => rename({ speaker_names: { ...names, [speaker]: name } })}
                      >
                        <span
                          className={clsx('min-w-0 truncate text-sm font-medium', speakerColour(index).text)}
                        >
                          {speakerName(speaker, names)}
                        </span>
                      </EditableName>
                    ) : (
                      <span
                        className={clsx('min-w-0 truncate text-sm font-medium', speakerColour(index).text)}
                      >
                        {speakerName(speaker, names)}
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            </Card>
          </aside>
        )}
      </div>

      <ConfirmDialog
        open={confirmDelete}
        title={`Delete ${details.name}?`}
        description="The transcript and its audio are deleted for good."
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={handleDelete}
        onCancel={() => setConfirmDelete(false)}
      />
    </div>
  );
}
