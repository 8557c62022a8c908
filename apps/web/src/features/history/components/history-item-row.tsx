import { type HistoryItemResponse, historyVoiceName } from '@parla/contracts';
import { clsx } from 'clsx';
import { formatDate, formatRelativeDate, fromUnixSeconds } from '../../../lib/format-date';
import { Button } from '../../../ui/button';
import { DownloadIcon, PauseIcon, PlayIcon, ShareIcon, SpinnerIcon, TrashIcon } from '../../../ui/icons';
import type { ShareButtonState } from '../history-rules';
import { FeedbackControl } from './feedback-control';

export interface HistoryItemRowProps {
  item: HistoryItemResponse;
  /**
   * What made the item, after its voices: the model's display name (or its id while the models are not
   * known) on the history page, the product on Home.
   */
  madeWith: string;
  /** This item is in the bottom player, playing: its button pauses. */
  playing: boolean;
  onPlay: () => void;
  onDownload: () => void;
  downloading: boolean;
  share: ShareButtonState;
  onShare: () => void;
  /** history/voices §6: feedback controls need the feedback_enabled feature config. */
  feedbackEnabled: boolean;
  /** The moment relative dates count from (the page's clock). */
  now: number;
  /** The history page's box to select the item (for a zip download); Home's short list has none. */
  selection?: { selected: boolean; onChange: (selected: boolean) => void };
  /** The history page's Delete; Home's short list has none. */
  onDelete?: () => void;
  /** Home's short list: a tighter row, its voices kept to one line. */
  compact?: boolean;
}

/** A short form of an item's text for the names of its buttons. */
export function describeItem(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 40 ? `${flat.slice(0, 40)}…` : flat;
}

/**
 * One history item (history/voices §2 "Speech history"): its text (clamped), voices, what made it and its
 * relative date, Play, and the toolbar — rate, download, share and (on the history page) delete; on the
 * history page also a box to select it.
 */
export function HistoryItemRow({
  item,
  madeWith,
  playing,
  onPlay,
  onDownload,
  downloading,
  share,
  onShare,
  feedbackEnabled,
  now,
  selection,
  onDelete,
  compact = false,
}: HistoryItemRowProps) {
  const date = fromUnixSeconds(item.date_unix);
  const name = describeItem(item.text);
  return (
    <li
      className={clsx(
        'flex gap-3 px-4 py-3',
        !compact && 'sm:px-5',
        selection && [selection.selected ? 'bg-accent/5' : 'hover:bg-subtle/50', 'transition-colors'],
      )}
    >
      {selection && (
        <input
          type="checkbox"
          checked={selection.selected}
          onChange={(event) => selection.onChange(event.target.checked)}
          aria-label={`Select “${name}”`}
          className="mt-2.5 size-4 shrink-0 cursor-pointer accent-accent"
        />
      )}
      <Button
        variant={playing ? 'primary' : 'secondary'}
        size="icon"
        className="mt-0.5 rounded-full"
        aria-label={`${playing ? 'Pause' : 'Play'} “${name}”`}
        onClick={onPlay}
      >
        {playing ? <PauseIcon /> : <PlayIcon className="translate-x-px" />}
      </Button>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="line-clamp-2 text-sm break-words text-fg" title={item.text}>
          {item.text}
        </p>
        <p
          className={clsx(
            'flex flex-wrap items-center gap-x-1.5 text-xs text-fg-muted',
            compact && 'min-w-0',
          )}
        >
          <span className={clsx('font-medium text-fg', compact && 'min-w-0 truncate')}>
            {historyVoiceName(item)}
          </span>
          <span aria-hidden="true">·</span>
          <span>{madeWith}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={date.toISOString()} title={formatDate(date)}>
            {formatRelativeDate(date, { now })}
          </time>
        </p>
        <div
          role="toolbar"
          aria-label={`Actions for “${name}”`}
          className="-ml-2 flex flex-wrap items-center gap-1"
        >
          {feedbackEnabled && <FeedbackControl historyItemId={item.history_item_id} text={item.text} />}
          <Button
            variant="ghost"
            size="sm"
            onClick={onDownload}
            disabled={downloading}
            aria-busy={downloading}
            aria-label={`Download “${name}”`}
          >
            {downloading ? <SpinnerIcon className="motion-safe:animate-spin" /> : <DownloadIcon />}
            <span className="hidden sm:inline">Download</span>
          </Button>
          {share.visible && (
            <Button
              variant="ghost"
              size="sm"
              onClick={onShare}
              disabled={share.disabled}
              aria-label={`Share “${name}”`}
              aria-haspopup="dialog"
            >
              <ShareIcon />
              <span className="hidden sm:inline">Share</span>
            </Button>
          )}
          {onDelete && (
            <Button
              variant="ghost"
              size="sm"
              onClick={onDelete}
              aria-label={`Delete “${name}”`}
              aria-haspopup="dialog"
              className="hover:text-danger"
            >
              <TrashIcon />
              <span className="hidden sm:inline">Delete</span>
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}
