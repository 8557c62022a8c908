import { clsx } from 'clsx';
import { type MouseEvent, useEffect, useRef } from 'react';
import type { DubbingResource } from '../api/types';
import { formatClock, type SpeakerLane, speakerLanes, timelineSeconds } from '../dubbing-rules';

/** How wide a second of the timeline is at least (a narrow screen scrolls the timeline sideways). */
const PIXELS_PER_SECOND = 48;
/** The speakers' names column. */
const LANE_LABEL_PX = 112;

export interface DubbingTimelineProps {
  resource: DubbingResource;
  /** The language whose text the blocks show. */
  language: string;
  selectedId: string | null;
  onSelect: (segmentId: string) => void;
  /** The playhead, in seconds. */
  currentTime: number;
  onSeek: (seconds: number) => void;
  /** The media is playing: the timeline scrolls to keep the playhead in view. */
  playing?: boolean;
  className?: string;
}

/** The marks of the ruler: every 5 s, or every 10/30/60 s on a long dub. */
function rulerStep(total: number): number {
  if (total <= 60) return 5;
  if (total <= 300) return 10;
  if (total <= 1200) return 30;
  return 60;
}

/**
 * The editor's timeline (issue 29 item 3): one lane per speaker and each segment a block placed by its
 * times; a click on a block selects it, a click elsewhere on the lanes seeks; the playhead follows playback.
 */
export function DubbingTimeline({
  resource,
  language,
  selectedId,
  onSelect,
  currentTime,
  onSeek,
  playing = false,
  className,
}: DubbingTimelineProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const total = timelineSeconds(resource);
  const lanes = speakerLanes(resource);
  const width = Math.ceil(total * PIXELS_PER_SECOND);
  const step = rulerStep(total);
  const marks = Array.from({ length: Math.floor(total / step) + 1 }, (_, index) => index * step);
  const seekFrom = (event: MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const share = box.width > 0 ? (event.clientX - box.left) / box.width : 0;
    onSeek(Math.min(total, Math.max(0, share * total)));
  };
  const playheadLeft = `${(Math.min(total, Math.max(0, currentTime)) / total) * 100}%`;
  // While playing, a playhead about to leave the visible part brings the next stretch into view.
  useEffect(() => {
    const element = scroller.current;
    if (!playing || !element) return;
    const lanesWidth = element.scrollWidth - LANE_LABEL_PX;
    const x = (Math.min(total, Math.max(0, currentTime)) / total) * lanesWidth;
    const visibleStart = element.scrollLeft;
    const visibleEnd = element.scrollLeft + element.clientWidth - LANE_LABEL_PX;
    if (x < visibleStart || x > visibleEnd - 24) element.scrollLeft = Math.max(0, x - 24);
  }, [currentTime, playing, total]);
  return (
    <section
      aria-label="Timeline"
      className={clsx('min-w-0 overflow-hidden rounded-xl border border-line bg-surface', className)}
    >
      <div ref={scroller} className="overflow-x-auto">
        <div className="flex min-w-full" style={{ width: width + LANE_LABEL_PX }}>
          <div
            className="sticky left-0 z-20 flex shrink-0 flex-col border-r border-line bg-surface"
            style={{ width: LANE_LABEL_PX }}
          >
            <div className="h-7 border-b border-line" />
            {lanes.map((lane) => (
              <div
                key={lane.speaker.id}
                className="flex h-16 items-center border-b border-line px-3 text-xs font-medium text-fg last:border-b-0"
              >
                <span className="line-clamp-2 [overflow-wrap:anywhere]">{lane.speaker.speaker_name}</span>
              </div>
            ))}
          </div>
          <div className="relative min-w-0 flex-1">
            {/* The ruler: a click on it seeks too. */}
            {/* biome-ignore lint/a11y/noStaticElementInteractions: the pointer's way to seek; the keyboard's is the player's own controls and the arrow keys between segments */}
            {/* biome-ignore lint/a11y/useKeyWithClickEvents: as above */}
            <div className="relative h-7 cursor-pointer border-b border-line" onClick={seekFrom}>
              {marks.map((mark) => (
                <span
                  key={mark}
                  className="absolute top-0 flex h-full items-center border-l border-line pl-1 text-[10px] text-fg-muted tabular-nums"
                  style={{ left: `${(mark / total) * 100}%` }}
                >
                  {formatClock(mark, false)}
                </span>
              ))}
            </div>
            {lanes.map((lane) => (
              <Lane
                key={lane.speaker.id}
                lane={lane}
                total={total}
                language={language}
                sourceLanguage={resource.source_language}
                selectedId={selectedId}
                onSelect={onSelect}
                onSeek={seekFrom}
              />
            ))}
            <div
              aria-hidden="true"
              data-testid="playhead"
              className="pointer-events-none absolute top-0 bottom-0 z-10 w-0.5 bg-danger"
              style={{ left: playheadLeft }}
            />
          </div>
        </div>
      </div>
    </section>
  );
}

function Lane({
  lane,
  total,
  language,
  sourceLanguage,
  selectedId,
  onSelect,
  onSeek,
}: {
  lane: SpeakerLane;
  total: number;
  language: string;
  sourceLanguage: string;
  selectedId: string | null;
  onSelect: (segmentId: string) => void;
  onSeek: (event: MouseEvent<HTMLDivElement>) => void;
}) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click between the blocks seeks (the pointer's way; the keyboard's is the player)
    // biome-ignore lint/a11y/useKeyWithClickEvents: as above
    <div
      data-speaker-lane={lane.speaker.id}
      className="relative h-16 cursor-pointer border-b border-line last:border-b-0"
      onClick={onSeek}
    >
      {lane.segments.map((segment) => {
        const text = language === sourceLanguage ? segment.text : (segment.dubs[language]?.text ?? '');
        const stale = language !== sourceLanguage && segment.dubs[language]?.audio_stale;
        const selected = segment.id === selectedId;
        return (
          <button
            key={segment.id}
            type="button"
            data-segment-id={segment.id}
            aria-pressed={selected}
            aria-label={`${formatClock(segment.start_time)}–${formatClock(segment.end_time)}: ${text || 'no text'}${stale ? ' (audio out of date)' : ''}`}
            onClick={(event) => {
              event.stopPropagation();
              onSelect(segment.id);
            }}
            className={clsx(
              'absolute top-2 bottom-2 overflow-hidden rounded-md border px-1.5 text-left text-[11px] leading-tight',
              'focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
              selected
                ? 'border-accent bg-accent/15 text-fg ring-2 ring-accent'
                : 'border-line bg-subtle text-fg hover:border-accent',
              stale && !selected && 'border-dashed border-warning',
            )}
            style={{
              left: `${(segment.start_time / total) * 100}%`,
              width: `max(0.5rem, ${((segment.end_time - segment.start_time) / total) * 100}%)`,
            }}
          >
            <span className="line-clamp-3">{text}</span>
          </button>
        );
      })}
    </div>
  );
}
