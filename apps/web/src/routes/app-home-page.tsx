import type { HistoryItemResponse } from '@parla/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { CreditMeter } from '../features/billing/components/credit-meter';
import { LatestGenerations } from '../features/history';
import { historyItemDownloadName } from '../features/history/download-history';
import { QuickActions } from '../features/home/components/quick-actions';
import { greetingFor } from '../features/home/home-rules';
import { ChecklistWidget } from '../features/onboarding/components/checklist-widget';
import { historyItemPlayback } from '../features/player/player-item';
import { usePlayer } from '../features/player/use-player';
import { useUser } from '../features/users/api/get-user';
import { Card, CardContent } from '../ui/card';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/home` (accounts §2 "home"; issue 18): where sign-in lands. A greeting, a quick action per built
 * product, the newest generations to play, rate, download and share, this period's credits and the
 * onboarding checklist while it is on.
 */
export default function AppHomePage() {
  return (
    <RequireSignIn>
      <Home />
    </RequireSignIn>
  );
}

function Home() {
  const user = useUser();
  const player = usePlayer();
  // The hour when the page opened: a greeting that changes under the reader would only distract.
  const [hour] = useState(() => new Date().getHours());
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
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <header className="flex flex-col gap-1">
        {user.isPending ? (
          <Skeleton className="h-9 w-64" />
        ) : (
          <h1 className="text-3xl font-semibold tracking-tight break-words">
            {greetingFor(hour, user.data?.first_name)}
          </h1>
        )}
        <p className="text-fg-muted">What would you like to make today?</p>
      </header>

      <QuickActions />

      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <LatestGenerations
          playingId={playingId}
          onPlay={handlePlay}
          feedbackEnabled={user.data?.feature_configs.feedback_enabled ?? false}
          tier={user.data?.subscription.tier}
          videoGeneration={user.data?.feature_configs.tts_video_generation ?? false}
        />
        <div className="flex min-w-0 flex-col gap-6">
          <Card>
            <CardContent className="flex flex-col gap-3">
              <CreditMeter />
              <Link
                to="/app/usage"
                className="self-start rounded-sm text-sm font-medium text-accent hover:underline"
              >
                See your usage
              </Link>
            </CardContent>
          </Card>
          <ChecklistWidget />
        </div>
      </div>
    </div>
  );
}
