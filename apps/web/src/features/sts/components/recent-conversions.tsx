import type { HistoryItemResponse } from '@parla/contracts';
import { formatDate, formatRelativeDate, fromUnixSeconds } from '../../../lib/format-date';
import { formatClipDuration } from '../../../lib/recording';
import { RecentHistory } from '../../history';

export interface RecentConversionsProps {
  onPlay: (item: HistoryItemResponse) => void;
  /** The item playing now, marked in the list. */
  playingId: string | null;
}

/** STS items have no text (history/voices §7), so a row names the voice, the time and the length. */
function describeConversion(item: HistoryItemResponse) {
  const date = fromUnixSeconds(item.date_unix);
  return {
    name: `the conversion to ${item.voice_name}, ${formatDate(date)}`,
    summary: (
      <>
        <p className="truncate text-sm font-medium text-fg">{item.voice_name}</p>
        <p className="text-xs text-fg-muted tabular-nums">
          <time dateTime={date.toISOString()} title={formatDate(date)}>
            {formatRelativeDate(date)}
          </time>{' '}
          · {formatClipDuration(item.duration_ms / 1000)}
        </p>
      </>
    ),
  };
}

/** The latest speech-to-speech items of the workspace (history `source=STS`), to play again or download. */
export function RecentConversions({ onPlay, playingId }: RecentConversionsProps) {
  return (
    <RecentHistory
      source="STS"
      title="Recent conversions"
      historyPath="/app/speech-synthesis/speech-to-speech/history"
      emptyText="Your conversions will appear here. Choose or record a clip above and press Convert."
      describe={describeConversion}
      onPlay={onPlay}
      playingId={playingId}
    />
  );
}
