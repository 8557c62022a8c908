import type { SharedItemResponse } from '@parla/contracts';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { sharedItemAudioUrl, useSharedItem } from '../features/history/api/get-shared-item';
import { SHARE_BRAND } from '../features/history/share-link-rules';
import {
  sharedItemFileName,
  sharedItemPlayback,
  sharedItemVoices,
} from '../features/history/shared-item-playback';
import { usePlayer } from '../features/player';
import { formatDate, fromUnixSeconds } from '../lib/format-date';
import { isHttpError } from '../lib/http-error';
import { Button, getButtonClasses } from '../ui/button';
import { DownloadIcon, PauseIcon, PlayIcon } from '../ui/icons';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

const signUpPath = '/app/sign-up';

/**
 * `/share/:share_link_id`: the public page a share link opens (history/voices §2 "Share link dialog"), open
 * without sign-in — the text, the voice, who shared it and when, the audio in the app's bottom player and a
 * download; a link that no longer works (the item was deleted) says so. The server writes the page's
 * link-preview tags (Open Graph, Twitter) into the HTML it sends for this address.
 */
export default function SharePage() {
  const { share_link_id: shareLinkId = '' } = useParams();
  const shared = useSharedItem(shareLinkId);

  if (shared.isError && isHttpError(shared.error) && shared.error.status === 404) return <GoneLink />;
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-10 sm:px-6 lg:py-16">
      {shared.isPending && (
        <div aria-busy="true" className="flex flex-col gap-4">
          <span className="sr-only">Loading the shared audio…</span>
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-8 w-3/4" />
          <Skeleton className="h-32 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      )}
      {shared.isError && <LoadError error={shared.error} onRetry={() => void shared.refetch()} />}
      {shared.data && <SharedItem item={shared.data} />}
    </div>
  );
}

function SharedItem({ item }: { item: SharedItemResponse }) {
  const date = fromUnixSeconds(item.date_unix);
  const sharer = item.public_user_name?.trim() || `a ${SHARE_BRAND} user`;
  const player = usePlayer();
  const { play } = player;
  const audioUrl = sharedItemAudioUrl(item.share_link_id);
  const fileName = sharedItemFileName(item);
  // The audio waits in the app's bottom player from the start (browsers refuse sound before a click).
  useEffect(() => {
    play(...sharedItemPlayback(item, false));
  }, [item, play]);
  const ours = player.state.item?.fileName === fileName && player.state.item.type === 'speechHistoryItem';
  const playing = ours && player.state.status === 'playing';
  const togglePlay = () => {
    if (playing) player.pause();
    else if (ours && player.state.status !== 'idle' && player.state.status !== 'loading') player.resume();
    else play(...sharedItemPlayback(item, true));
  };
  return (
    <article aria-labelledby="shared-title" className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        <h1 id="shared-title" className="text-2xl font-semibold tracking-tight sm:text-3xl">
          Listen to this text to speech
        </h1>
        <p className="flex flex-wrap gap-x-1.5 text-sm text-fg-muted">
          <span>
            Shared by <span className="font-medium text-fg">{sharer}</span>
          </span>
          <span aria-hidden="true">·</span>
          <span>
            {item.dialogue && new Set(item.dialogue.map((l) => l.voice_name)).size > 1 ? 'Voices' : 'Voice'}:{' '}
            <span className="font-medium text-fg">{sharedItemVoices(item)}</span>
          </span>
          <span aria-hidden="true">·</span>
          <time dateTime={date.toISOString()}>{formatDate(date)}</time>
        </p>
      </header>

      <div className="rounded-xl border border-line bg-surface p-5 shadow-xs sm:p-6">
        {item.dialogue && item.dialogue.length > 0 ? (
          <ol aria-label="Dialogue" className="flex flex-col gap-3">
            {item.dialogue.map((line, index) => (
              // Lines have no id of their own and never move.
              // biome-ignore lint/suspicious/noArrayIndexKey: the order is the dialogue's.
              <li key={index} className="flex flex-col gap-0.5">
                <span className="text-xs font-semibold tracking-wide text-fg-muted uppercase">
                  {line.voice_name}
                </span>
                <p className="text-base leading-relaxed whitespace-pre-wrap text-fg">{line.text}</p>
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-base leading-relaxed whitespace-pre-wrap text-fg">{item.text}</p>
        )}
      </div>

      <div className="flex flex-wrap gap-3">
        <Button onClick={togglePlay}>
          {playing ? <PauseIcon /> : <PlayIcon />}
          {playing ? 'Pause' : 'Play'}
        </Button>
        <a href={audioUrl} download={fileName} className={getButtonClasses('secondary', 'md')}>
          <DownloadIcon />
          Download
        </a>
      </div>

      <div className="flex flex-col items-start gap-3 rounded-xl border border-accent/30 bg-accent/5 p-5 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-fg">Turn any text into lifelike speech, in the voice you choose.</p>
        <Link to={signUpPath} className={getButtonClasses('primary', 'md')}>
          Make your own with {SHARE_BRAND}
        </Link>
      </div>
    </article>
  );
}

/** A share link whose item is gone (404). */
function GoneLink() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-start gap-4 px-4 py-24 sm:px-6">
      <p className="text-sm font-medium text-fg-muted tabular-nums">404</p>
      <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">This share link no longer works</h1>
      <p className="text-fg-muted">
        The audio it pointed to has been deleted, or the link was copied incompletely. Ask the person who
        shared it for a new link — or make some speech of your own.
      </p>
      <Link to={signUpPath} className={getButtonClasses('primary', 'md')}>
        Make your own with {SHARE_BRAND}
      </Link>
    </div>
  );
}
