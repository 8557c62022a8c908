import { clsx } from 'clsx';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { inputClasses } from '../../../ui/field';
import { Skeleton } from '../../../ui/skeleton';
import { useAddDubbingLanguage } from '../api/add-dubbing-language';
import { useDubSegments } from '../api/dub-segments';
import { getDubbingFile, useDubbingFileUrl } from '../api/get-dubbing-file';
import { useDubbingLanguages } from '../api/get-dubbing-languages';
import { useTranslateSegments } from '../api/translate-segments';
import { DUBBING_MAX_LANGUAGES, type DubbingMetadata, type DubbingResource } from '../api/types';
import {
  dubbingLanguageName,
  formatClock,
  segmentsInOrder,
  speakerOfSegment,
  targetAvailability,
} from '../dubbing-rules';
import { DubbingTimeline } from './dubbing-timeline';
import { RenderPanel } from './render-panel';
import { SegmentPanel, segmentTextId } from './segment-panel';
import { SpeakersPanel } from './speakers-panel';

/** Starts a media element; a refused start (autoplay rules, no source yet) is left to its own controls. */
function startPlaying(element: HTMLMediaElement): void {
  try {
    void Promise.resolve(element.play()).catch(() => undefined);
  } catch {
    // A browser without playback: the element's own controls say so.
  }
}

/** Whether a key event comes from a place where typing or a control's own keys come first. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    (target.tagName === 'BUTTON' && !target.dataset.segmentId) ||
    target.tagName === 'A' ||
    target.tagName === 'VIDEO' ||
    target.tagName === 'AUDIO'
  );
}

/**
 * The dubbing editor (issue 29 item 3): the input's player, the speakers' timeline, the selected segment's
 * texts in the source and the current language, the speakers' names and voices, renders and downloads.
 * Keyboard: Space plays and pauses (not while typing), the arrow keys move between segments, Enter edits.
 */
export function DubbingEditor({ dub, resource }: { dub: DubbingMetadata; resource: DubbingResource }) {
  const id = useId();
  const languages = useDubbingLanguages();
  const languageName = useCallback(
    (code: string) => dubbingLanguageName(code, languages.data),
    [languages.data],
  );
  const [language, setLanguage] = useState(resource.target_languages[0] ?? resource.source_language);
  const segments = useMemo(() => segmentsInOrder(resource), [resource]);
  const [selectedId, setSelectedId] = useState<string | null>(segments[0]?.id ?? null);
  const selected = selectedId ? resource.speaker_segments[selectedId] : undefined;
  const media = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const clip = useRef<HTMLAudioElement>(null);
  const stopAt = useRef<number | null>(null);
  const [currentTime, setCurrentTime] = useState(0);
  const [playing, setPlaying] = useState(false);
  const input = useDubbingFileUrl(resource.input.url);
  const [clipLoading, setClipLoading] = useState(false);
  const { toastError } = useToast();
  const isVideo = !resource.input.is_audio;

  // The selected segment disappears (deleted elsewhere): select the first one.
  useEffect(() => {
    if (selectedId && !resource.speaker_segments[selectedId]) setSelectedId(segments[0]?.id ?? null);
  }, [resource, selectedId, segments]);

  const seek = useCallback((seconds: number) => {
    stopAt.current = null;
    if (media.current) media.current.currentTime = seconds;
    setCurrentTime(seconds);
  }, []);

  const select = useCallback(
    (segmentId: string, focus = false) => {
      setSelectedId(segmentId);
      const segment = resource.speaker_segments[segmentId];
      if (segment && media.current?.paused !== false) seek(segment.start_time);
      const block = [...document.querySelectorAll<HTMLElement>('[data-segment-id]')].find(
        (element) => element.dataset.segmentId === segmentId,
      );
      block?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
      if (focus) block?.focus();
    },
    [resource, seek],
  );

  const togglePlay = useCallback(() => {
    const element = media.current;
    if (!element) return;
    stopAt.current = null;
    if (element.paused) startPlaying(element);
    else element.pause();
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.metaKey || event.ctrlKey) return;
      if (document.querySelector('[role="dialog"]')) return;
      const typing = isTypingTarget(event.target);
      if (event.key === ' ' && !typing) {
        event.preventDefault();
        togglePlay();
        return;
      }
      if (typing) return;
      const index = segments.findIndex((segment) => segment.id === selectedId);
      if (event.key === 'ArrowRight' || event.key === 'ArrowDown') {
        const next = segments[Math.min(segments.length - 1, index + 1)];
        if (next) {
          event.preventDefault();
          select(next.id, true);
        }
      } else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') {
        const previous = segments[Math.max(0, index - 1)];
        if (previous) {
          event.preventDefault();
          select(previous.id, true);
        }
      } else if (event.key === 'Enter' && selectedId) {
        event.preventDefault();
        document.getElementById(segmentTextId(language))?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [segments, selectedId, select, togglePlay, language]);

  const playSource = () => {
    const element = media.current;
    if (!element || !selected) return;
    clip.current?.pause();
    element.currentTime = selected.start_time;
    stopAt.current = selected.end_time;
    startPlaying(element);
  };

  const playDub = async () => {
    const ref = selected?.dubs[language]?.media_ref;
    if (!ref || !clip.current) return;
    media.current?.pause();
    setClipLoading(true);
    try {
      const blob = await getDubbingFile(ref.url);
      const url = URL.createObjectURL(blob);
      const element = clip.current;
      element.onended = () => URL.revokeObjectURL(url);
      element.src = url;
      startPlaying(element);
    } catch (error) {
      toastError(error);
    } finally {
      setClipLoading(false);
    }
  };

  const speakers = Object.values(resource.speaker_tracks);
  const allLanguages = [resource.source_language, ...resource.target_languages];

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-3">
        <Link to="/app/dubbing" className="self-start text-sm text-fg-muted hover:text-fg hover:underline">
          ← All dubs
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
            {dub.name}
          </h1>
          <Badge tone="success" dot>
            Dubbed
          </Badge>
        </div>
        <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
          <fieldset className="flex flex-wrap gap-1.5">
            <legend className="sr-only">Language</legend>
            {allLanguages.map((code) => (
              <button
                key={code}
                type="button"
                aria-pressed={code === language}
                onClick={() => setLanguage(code)}
                className={clsx(
                  'inline-flex h-8 items-center gap-1.5 rounded-md border px-3 text-sm font-medium transition-colors',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                  code === language
                    ? 'border-fg bg-fg text-bg'
                    : 'border-line bg-surface text-fg hover:bg-subtle',
                )}
              >
                {languageName(code)}
                {code === resource.source_language && (
                  <span className={clsx('text-xs', code === language ? 'text-bg/70' : 'text-fg-muted')}>
                    source
                  </span>
                )}
              </button>
            ))}
          </fieldset>
          <AddLanguage dubbingId={dub.dubbing_id} resource={resource} onAdded={setLanguage} />
        </div>
      </header>

      {language !== resource.source_language && segments.some((segment) => !segment.dubs[language]?.text) && (
        <FillLanguage
          dubbingId={dub.dubbing_id}
          segmentIds={segments.map((segment) => segment.id)}
          language={language}
          languageName={languageName}
        />
      )}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section aria-label="Player" className="flex flex-col gap-2 lg:col-start-1 lg:row-start-1">
          {input.isPending ? (
            <Skeleton className={clsx('w-full rounded-xl', isVideo ? 'aspect-video' : 'h-14')} />
          ) : input.isError ? (
            <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 text-sm text-danger">
              The source file could not be loaded.
            </p>
          ) : isVideo ? (
            // biome-ignore lint/a11y/useMediaCaption: the source video's captions are the transcript beside it
            <video
              ref={media}
              src={input.src}
              controls
              playsInline
              aria-label="Source video"
              className="aspect-video w-full rounded-xl bg-black"
              onPlay={() => setPlaying(true)}
              onPause={() => setPlaying(false)}
              onTimeUpdate={(event) => {
                const time = event.currentTarget.currentTime;
                setCurrentTime(time);
                if (stopAt.current !== null && time >= stopAt.current) {
                  stopAt.current = null;
                  event.currentTarget.pause();
                }
              }}
            />
          ) : (
            // biome-ignore lint/a11y/useMediaCaption: an audio source; its transcript is the segments beside it
            <audio
              ref={media}
              src={input.src}
              controls
              aria-label="Source audio"
              className="w-full"
              onPlay={() => setPlaying(true)}
              onPause={() => setPlaying(false)}
              onTimeUpdate={(event) => {
                const time = event.currentTarget.currentTime;
                setCurrentTime(time);
                if (stopAt.current !== null && time >= stopAt.current) {
                  stopAt.current = null;
                  event.currentTarget.pause();
                }
              }}
            />
          )}
          {/* biome-ignore lint/a11y/useMediaCaption: a dubbed clip; its text is shown in the segment panel */}
          <audio ref={clip} className="hidden" />
          <p id={`${id}-keys`} className="text-xs text-fg-muted">
            <span className="tabular-nums">{formatClock(currentTime)}</span> · Space plays or pauses, ← → move
            between segments, Enter edits the text.
          </p>
        </section>
        <DubbingTimeline
          className="lg:col-span-2 lg:row-start-2"
          resource={resource}
          language={language}
          selectedId={selectedId}
          onSelect={(segmentId) => select(segmentId)}
          currentTime={currentTime}
          onSeek={seek}
          playing={playing}
        />
        {selected ? (
          <SegmentPanel
            className="lg:col-start-2 lg:row-start-1"
            dubbingId={dub.dubbing_id}
            segment={selected}
            speakerName={speakerOfSegment(resource, selected.id)?.speaker_name ?? 'Speaker'}
            sourceLanguage={resource.source_language}
            language={language}
            languageName={languageName}
            onPlaySource={playSource}
            onPlayDub={() => void playDub()}
            playingDub={clipLoading}
          />
        ) : (
          <section className="flex items-center justify-center rounded-xl border border-dashed lg:col-start-2 lg:row-start-1 border-line p-6 text-sm text-fg-muted">
            This dub has no segments: nothing was heard in its source.
          </section>
        )}
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <SpeakersPanel
          dubbingId={dub.dubbing_id}
          speakers={speakers}
          language={language}
          sourceLanguage={resource.source_language}
          languageName={languageName}
        />
        <RenderPanel
          dubbingId={dub.dubbing_id}
          name={dub.name}
          resource={resource}
          language={language}
          languageName={languageName}
        />
      </div>
    </div>
  );
}

/**
 * A language added in the editor has no text yet: translate every segment into it (an empty list means
 * all of them), then speak them, named one by one (an empty list to `dub` left the new translations'
 * audio stale on the server).
 */
function FillLanguage({
  dubbingId,
  segmentIds,
  language,
  languageName,
}: {
  dubbingId: string;
  segmentIds: string[];
  language: string;
  languageName: (code: string) => string;
}) {
  const translate = useTranslateSegments(dubbingId);
  const speak = useDubSegments(dubbingId);
  const { toast, toastError } = useToast();
  const pending = translate.isPending || speak.isPending;
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-warning bg-warning-soft px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-fg">
        Some segments have no {languageName(language)} text yet. Translate and speak them all, or type the
        translations one by one.
      </p>
      <Button
        size="sm"
        disabled={pending}
        aria-busy={pending}
        onClick={async () => {
          // mutateAsync, not mutate's callbacks: once translated, this notice unmounts (the segments have
          // text), and a mutate callback of an unmounted component never runs, so the dub was never asked.
          try {
            await translate.mutateAsync({ segments: [], languages: [language] });
            await speak.mutateAsync({ segments: segmentIds, languages: [language] });
            toast({ title: `${languageName(language)} dubbed`, variant: 'success' });
          } catch (error) {
            toastError(error);
          }
        }}
      >
        {translate.isPending ? 'Translating…' : speak.isPending ? 'Speaking…' : 'Translate and dub all'}
      </Button>
    </div>
  );
}

function AddLanguage({
  dubbingId,
  resource,
  onAdded,
}: {
  dubbingId: string;
  resource: DubbingResource;
  onAdded: (code: string) => void;
}) {
  const id = useId();
  const languages = useDubbingLanguages();
  const add = useAddDubbingLanguage(dubbingId);
  const { toast, toastError } = useToast();
  const [code, setCode] = useState('');
  const taken = new Set([resource.source_language, ...resource.target_languages]);
  const full = resource.target_languages.length >= DUBBING_MAX_LANGUAGES;
  if (!languages.data) return null;
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!code) return;
        add.mutate(code, {
          onSuccess: () => {
            toast({
              title: `${dubbingLanguageName(code, languages.data)} added`,
              description: 'Re-translate and re-dub its segments to fill it in.',
              variant: 'success',
            });
            onAdded(code);
            setCode('');
          },
          onError: (error) => toastError(error),
        });
      }}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-add`} className="text-xs font-medium text-fg-muted">
          Add a language
        </label>
        <select
          id={`${id}-add`}
          className={clsx(inputClasses, 'w-56')}
          value={code}
          disabled={full}
          onChange={(event) => setCode(event.target.value)}
        >
          <option value="">
            {full ? `At most ${DUBBING_MAX_LANGUAGES} languages` : 'Choose a language'}
          </option>
          {languages.data
            .filter((entry) => !taken.has(entry.code))
            .map((entry) => {
              const availability = targetAvailability(entry, languages.data);
              return (
                <option key={entry.code} value={entry.code} disabled={!availability.available}>
                  {availability.note ? `${entry.name} — ${availability.note}` : entry.name}
                </option>
              );
            })}
        </select>
      </div>
      <Button type="submit" variant="secondary" disabled={!code || add.isPending}>
        Add
      </Button>
    </form>
  );
}
