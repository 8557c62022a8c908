import type { HistoryItemResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { SpeechHistory } from '../features/history/components/speech-history';
import { historyItemDownloadName } from '../features/history/download-history';
import { historyPagePaths, historySourceFromPath } from '../features/history/history-rules';
import { historyItemPlayback } from '../features/player/player-item';
import { usePlayer } from '../features/player/use-player';
import { useModels } from '../features/tts/api/list-models';
import { useVoices } from '../features/tts/api/list-voices';
import { modelDisplayName } from '../features/tts/tts-rules';
import { useUser } from '../features/users/api/get-user';

const titles = { TTS: 'Text to speech history', STS: 'Speech to speech history' } as const;

/**
 * `/app/speech-synthesis/text-to-speech/history` and `/app/speech-synthesis/speech-to-speech/history`
 * (history/voices §2 "Speech history"): one page, its source read from the path.
 */
export default function HistoryPage() {
  return (
    <RequireSignIn>
      <History />
    </RequireSignIn>
  );
}

function History() {
  const { pathname } = useLocation();
  const source = historySourceFromPath(pathname);
  const voices = useVoices();
  const models = useModels();
  const user = useUser();
  const player = usePlayer();

  // A generation made with a public id shows the name of the Parla model that spoke it.
  const modelNames = useMemo(
    () =>
      new Map(
        (models.data ?? []).map((model) => [
          model.model_id,
          modelDisplayName(models.data ?? [], model.model_id),
        ]),
      ),
    [models.data],
  );
  const voiceOptions = useMemo(
    () => [...(voices.data ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
    [voices.data],
  );

  const { item: current, status } = player.state;
  const playingId = current && status === 'playing' ? current.id : null;

  /** Plays an item in the bottom player; the item already there pauses or carries on instead. */
  const handlePlay = (item: HistoryItemResponse) => {
    if (current?.id === item.history_item_id && current.type === 'speechHistoryItem' && status !== 'idle') {
      if (status === 'playing') player.pause();
      else player.resume();
      return;
    }
    player.play(...historyItemPlayback(item, historyItemDownloadName(item)));
  };

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <header className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{titles[source]}</h1>
          <p className="text-sm text-fg-muted">
            Everything you generated, newest first: play it again, rate it, download it or share it.
          </p>
        </div>
        <nav
          aria-label="Histories"
          className="flex gap-1 self-start rounded-lg border border-line bg-subtle p-1"
        >
          {(['TTS', 'STS'] as const).map((each) => (
            <Link
              key={each}
              to={historyPagePaths[each]}
              aria-current={each === source ? 'page' : undefined}
              className={clsx(
                'rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
                each === source ? 'bg-surface text-fg shadow-xs' : 'text-fg-muted hover:text-fg',
              )}
            >
              {each === 'TTS' ? 'Text to speech' : 'Speech to speech'}
            </Link>
          ))}
        </nav>
      </header>
      <SpeechHistory
        key={source}
        source={source}
        voices={voiceOptions}
        modelNames={modelNames}
        playingId={playingId}
        onPlay={handlePlay}
        feedbackEnabled={user.data?.feature_configs.feedback_enabled ?? false}
        tier={user.data?.subscription.tier}
        videoGeneration={user.data?.feature_configs.tts_video_generation ?? false}
      />
    </div>
  );
}
