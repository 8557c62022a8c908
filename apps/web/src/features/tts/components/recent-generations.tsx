import { type HistoryItemResponse, historyVoiceName } from '@parla/contracts';
import { formatDate, formatRelativeDate, fromUnixSeconds } from '../../../lib/format-date';
import { RecentHistory } from '../../history';

export interface RecentGenerationsProps {
  onPlay: (item: HistoryItemResponse) => void;
  /** The item playing now, marked in the list. */
  playingId: string | null;
}

function describeGeneration(item: HistoryItemResponse) {
  const date = fromUnixSeconds(item.date_unix);
  return {
    name: `“${shorten(item.text)}”`,
    summary: (
      <>
        <p className="line-clamp-2 text-sm text-fg">{item.text}</p>
        <p className="text-xs text-fg-muted">
          {historyVoiceName(item)} ·{' '}
          <time dateTime={date.toISOString()} title={formatDate(date)}>
            {formatRelativeDate(date)}
          </time>{' '}
          · {(item.duration_ms / 1000).toFixed(1)} s
        </p>
      </>
    ),
  };
}

/** The latest text-to-speech generations of the workspace, newest first, to play again or download. */
export function RecentGenerations({ onPlay, playingId }: RecentGenerationsProps) {
  return (
    <RecentHistory
      source="TTS"
      title="Recent generations"
      historyPath="/app/speech-synthesis/text-to-speech/history"
      emptyText="Your generations will appear here. Type some text above and press Generate."
      describe={describeGeneration}
      onPlay={onPlay}
      playingId={playingId}
    />
  );
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
