import { clsx } from 'clsx';
import { useEffect, useId, useState } from 'react';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { textareaClasses } from '../../../ui/field';
import { PlayIcon, RefreshIcon, SpinnerIcon } from '../../../ui/icons';
import { useDubSegments } from '../api/dub-segments';
import { useTranslateSegments } from '../api/translate-segments';
import type { SpeakerSegment } from '../api/types';
import { useUpdateSegment } from '../api/update-segment';
import { formatClock } from '../dubbing-rules';

export interface SegmentPanelProps {
  dubbingId: string;
  segment: SpeakerSegment;
  speakerName: string;
  sourceLanguage: string;
  /** The language being edited (a target), or the source language (only the source text then). */
  language: string;
  languageName: (code: string) => string;
  onPlaySource: () => void;
  onPlayDub: () => void;
  playingDub: boolean;
  className?: string;
}

/** The id of the text area a language's text is edited in (Enter on the timeline focuses it). */
export function segmentTextId(language: string): string {
  return `dubbing-segment-text-${language}`;
}

/**
 * The selected segment (issue 29 item 3): its source text and its translation in the current language,
 * both editable (PATCH, then the resource loads again), re-translate and re-dub, and its clips to hear.
 */
export function SegmentPanel({
  dubbingId,
  segment,
  speakerName,
  sourceLanguage,
  language,
  languageName,
  onPlaySource,
  onPlayDub,
  playingDub,
  className,
}: SegmentPanelProps) {
  const { toast, toastError } = useToast();
  const translate = useTranslateSegments(dubbingId);
  const redub = useDubSegments(dubbingId);
  const isTarget = language !== sourceLanguage;
  const dub = isTarget ? segment.dubs[language] : undefined;
  return (
    <section
      aria-label="Selected segment"
      className={clsx('flex flex-col gap-4 rounded-xl border border-line bg-surface p-4', className)}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">
          {speakerName}{' '}
          <span className="font-normal text-fg-muted tabular-nums">
            {formatClock(segment.start_time)}–{formatClock(segment.end_time)}
          </span>
        </h2>
        {dub?.audio_stale && (
          <Badge tone="warning" dot>
            Audio out of date
          </Badge>
        )}
      </div>
      <TextEditor
        key={`${segment.id}-${sourceLanguage}`}
        dubbingId={dubbingId}
        segmentId={segment.id}
        language={sourceLanguage}
        label={`Source text (${languageName(sourceLanguage)})`}
        text={segment.text}
      />
      {isTarget && (
        <TextEditor
          key={`${segment.id}-${language}`}
          dubbingId={dubbingId}
          segmentId={segment.id}
          language={language}
          label={`Translation (${languageName(language)})`}
          text={dub?.text ?? ''}
        />
      )}
      {dub?.audio_stale && (
        <p className="text-xs text-fg-muted">
          The text changed since this line was spoken: re-dub it to hear the new words.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={onPlaySource}>
          <PlayIcon aria-hidden="true" />
          Play source
        </Button>
        {isTarget && (
          <Button variant="secondary" size="sm" onClick={onPlayDub} disabled={!dub?.media_ref || playingDub}>
            {playingDub ? (
              <SpinnerIcon className="motion-safe:animate-spin" />
            ) : (
              <PlayIcon aria-hidden="true" />
            )}
            Play dub
          </Button>
        )}
        {isTarget && (
          <>
            <Button
              variant="secondary"
              size="sm"
              disabled={translate.isPending}
              aria-busy={translate.isPending}
              onClick={() =>
                translate.mutate(
                  { segments: [segment.id], languages: [language] },
                  {
                    onSuccess: () => toast({ title: 'Translated again', variant: 'success' }),
                    onError: (error) => toastError(error),
                  },
                )
              }
            >
              {translate.isPending ? (
                <SpinnerIcon className="motion-safe:animate-spin" />
              ) : (
                <RefreshIcon aria-hidden="true" />
              )}
              Re-translate
            </Button>
            <Button
              variant={dub?.audio_stale ? 'primary' : 'secondary'}
              size="sm"
              disabled={redub.isPending}
              aria-busy={redub.isPending}
              onClick={() =>
                redub.mutate(
                  { segments: [segment.id], languages: [language] },
                  {
                    onSuccess: () => toast({ title: 'Segment dubbed again', variant: 'success' }),
                    onError: (error) => toastError(error),
                  },
                )
              }
            >
              {redub.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
              Re-dub
            </Button>
          </>
        )}
      </div>
    </section>
  );
}

function TextEditor({
  dubbingId,
  segmentId,
  language,
  label,
  text,
}: {
  dubbingId: string;
  segmentId: string;
  language: string;
  label: string;
  text: string;
}) {
  const id = useId();
  const { toast, toastError } = useToast();
  const update = useUpdateSegment(dubbingId);
  const [draft, setDraft] = useState(text);
  // A new text from the server (a re-translation) replaces the draft unless it is being edited.
  const [base, setBase] = useState(text);
  useEffect(() => {
    if (text !== base) {
      setDraft((current) => (current === base ? text : current));
      setBase(text);
    }
  }, [text, base]);
  const dirty = draft !== text;
  const save = () =>
    update.mutate(
      { segmentId, language, text: draft },
      {
        onSuccess: () => toast({ title: 'Text saved', variant: 'success' }),
        onError: (error) => toastError(error),
      },
    );
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={segmentTextId(language)} className="text-sm font-medium text-fg">
        {label}
      </label>
      <textarea
        id={segmentTextId(language)}
        className={textareaClasses}
        rows={3}
        maxLength={5000}
        value={draft}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          // Ctrl/⌘+Enter saves; Escape puts the saved text back.
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey) && dirty) {
            event.preventDefault();
            save();
          } else if (event.key === 'Escape' && dirty) {
            event.stopPropagation();
            setDraft(text);
          }
        }}
      />
      <div className="flex items-center justify-between gap-2">
        <p id={`${id}-hint`} className="text-xs text-fg-muted">
          {dirty ? 'Unsaved · Ctrl+Enter saves, Escape undoes' : 'Saved'}
        </p>
        <div className="flex gap-2">
          {dirty && (
            <Button variant="ghost" size="sm" onClick={() => setDraft(text)}>
              Undo
            </Button>
          )}
          <Button size="sm" disabled={!dirty || update.isPending} aria-busy={update.isPending} onClick={save}>
            {update.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
            Save {label.split(' (')[0]?.toLowerCase()}
          </Button>
        </div>
      </div>
    </div>
  );
}
