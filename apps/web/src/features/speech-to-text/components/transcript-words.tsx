import { clsx } from 'clsx';
import { type KeyboardEvent, memo, useEffect, useRef } from 'react';
import {
  formatTimestamp,
  type Paragraph,
  type SearchMatch,
  speakerColour,
  speakerName,
  type ViewWord,
} from '../stt-rules';

export interface TranscriptWordsProps {
  words: readonly ViewWord[];
  paragraphs: readonly Paragraph[];
  /** Speakers in order of appearance (their colour). */
  speakers: readonly string[];
  speakerNames: Readonly<Record<string, string>>;
  /** The word being spoken, or -1. */
  activeIndex: number;
  /** The word holding the transcript's one tab stop. */
  focusIndex: number;
  onFocusIndexChange: (index: number) => void;
  /** Words inside a search match. */
  matchedWords: ReadonlySet<number>;
  /** The match the search is on. */
  currentMatch: SearchMatch | null;
  /** Plays from a word (click, Enter or Space); absent without timestamps. */
  onSeek?: ((word: ViewWord) => void) | undefined;
  /** Keep the word being spoken in view. */
  follow: boolean;
  /** The id of the text that explains the keys. */
  describedBy: string;
}

/**
 * The transcript's text: paragraphs by speaker with their time, words as buttons that play from there.
 * Keyboard: the transcript is one tab stop (the word last visited); Left/Right move a word, Up/Down a
 * paragraph, Home/End to the ends, Enter or Space plays from the word — so a long transcript does not take
 * hundreds of Tab presses to get through.
 */
export function TranscriptWords({
  words,
  paragraphs,
  speakers,
  speakerNames,
  activeIndex,
  focusIndex,
  onFocusIndexChange,
  matchedWords,
  currentMatch,
  onSeek,
  follow,
  describedBy,
}: TranscriptWordsProps) {
  const container = useRef<HTMLElement>(null);
  const moveFocus = useRef(false);

  // The roving focus follows the keys.
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    container.current?.querySelector<HTMLElement>(`[data-word="${focusIndex}"]`)?.focus();
  }, [focusIndex]);

  // The word being spoken stays in view while following (unless it already is).
  useEffect(() => {
    if (!follow || activeIndex < 0) return;
    const element = container.current?.querySelector<HTMLElement>(`[data-word="${activeIndex}"]`);
    if (!element) return;
    const box = element.getBoundingClientRect();
    const bottomBar = 96; // the bottom player's 5rem and a margin
    if (box.top < 64 || box.bottom > window.innerHeight - bottomBar)
      element.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  }, [activeIndex, follow]);

  // The search's current match is brought into view.
  useEffect(() => {
    if (!currentMatch) return;
    container.current
      ?.querySelector<HTMLElement>(`[data-word="${currentMatch.first}"]`)
      ?.scrollIntoView?.({ block: 'center' });
  }, [currentMatch]);

  const paragraphOf = (index: number) => paragraphs.findIndex((p) => index >= p.first && index <= p.last);

  const handleKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const last = words.length - 1;
    let next: number | null = null;
    if (event.key === 'ArrowRight') next = Math.min(last, focusIndex + 1);
    else if (event.key === 'ArrowLeft') next = Math.max(0, focusIndex - 1);
    else if (event.key === 'ArrowDown') {
      const paragraph = paragraphs[paragraphOf(focusIndex) + 1];
      next = paragraph ? paragraph.first : last;
    } else if (event.key === 'ArrowUp') {
      const at = paragraphOf(focusIndex);
      const own = paragraphs[at];
      // Up goes to the start of this paragraph first, then to the one before.
      next = own && own.first < focusIndex ? own.first : (paragraphs[at - 1]?.first ?? 0);
    } else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    if (next === null) return;
    event.preventDefault();
    moveFocus.current = true;
    onFocusIndexChange(next);
  };

  const position = new Map(speakers.map((speaker, index) => [speaker, index]));
  return (
    <section
      ref={container}
      aria-label="Transcript"
      aria-describedby={describedBy}
      onKeyDown={handleKeyDown}
      className="flex flex-col gap-6"
    >
      {paragraphs.map((paragraph) => {
        const inRange = (index: number) => (index >= paragraph.first && index <= paragraph.last ? index : -1);
        const match =
          currentMatch && currentMatch.last >= paragraph.first && currentMatch.first <= paragraph.last
            ? currentMatch
            : null;
        return (
          <ParagraphView
            key={paragraph.first}
            words={words}
            paragraph={paragraph}
            speakerLabel={paragraph.speakerId ? speakerName(paragraph.speakerId, speakerNames) : null}
            colour={paragraph.speakerId ? speakerColour(position.get(paragraph.speakerId) ?? 0).text : null}
            activeIndex={inRange(activeIndex)}
            focusIndex={inRange(focusIndex)}
            matchedWords={matchedWords}
            currentMatch={match}
            onSeek={onSeek}
            onFocusIndexChange={onFocusIndexChange}
          />
        );
      })}
    </section>
  );
}

interface ParagraphViewProps {
  words: readonly ViewWord[];
  paragraph: Paragraph;
  speakerLabel: string | null;
  colour: string | null;
  activeIndex: number;
  focusIndex: number;
  matchedWords: ReadonlySet<number>;
  currentMatch: SearchMatch | null;
  onSeek?: ((word: ViewWord) => void) | undefined;
  onFocusIndexChange: (index: number) => void;
}

/** One paragraph; re-rendered only when something inside it changes (the spoken word moves on often). */
const ParagraphView = memo(function ParagraphView({
  words,
  paragraph,
  speakerLabel,
  colour,
  activeIndex,
  focusIndex,
  matchedWords,
  currentMatch,
  onSeek,
  onFocusIndexChange,
}: ParagraphViewProps) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5 sm:flex-row sm:gap-5">
      <div className="flex shrink-0 items-baseline gap-2 sm:w-36 sm:flex-col sm:items-start sm:gap-0.5">
        {speakerLabel && <p className={clsx('text-sm font-semibold', colour)}>{speakerLabel}</p>}
        {paragraph.start !== null && (
          <p className="text-xs text-fg-muted tabular-nums">{formatTimestamp(paragraph.start)}</p>
        )}
      </div>
      <p className="min-w-0 flex-1 text-base leading-8 text-fg [overflow-wrap:anywhere]">
        {words.slice(paragraph.first, paragraph.last + 1).map((word) => {
          const matched = matchedWords.has(word.index);
          const current =
            currentMatch !== null && word.index >= currentMatch.first && word.index <= currentMatch.last;
          const active = word.index === activeIndex;
          const label = word.kind === 'audio_event' ? `(${word.text.replace(/^\(|\)$/g, '')})` : word.text;
          return (
            <span key={word.index}>
              <button
                type="button"
                data-word={word.index}
                tabIndex={word.index === focusIndex ? 0 : -1}
                aria-current={active ? 'true' : undefined}
                onFocus={() => onFocusIndexChange(word.index)}
                onClick={() => onSeek?.(word)}
                title={word.start !== null ? formatTimestamp(word.start) : undefined}
                className={clsx(
                  '-mx-0.5 inline max-w-full cursor-pointer rounded px-0.5 text-left [overflow-wrap:anywhere] transition-colors',
                  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
                  word.kind === 'audio_event' && 'text-fg-muted italic',
                  active
                    ? 'bg-accent text-white dark:text-bg'
                    : current
                      ? 'bg-warning/40 text-fg'
                      : matched
                        ? 'bg-warning-soft text-fg ring-1 ring-warning/40 ring-inset'
                        : 'hover:bg-subtle',
                )}
              >
                {label}
              </button>{' '}
            </span>
          );
        })}
      </p>
    </div>
  );
});
