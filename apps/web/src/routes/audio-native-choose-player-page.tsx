import { Link, Navigate, useLocation } from 'react-router';
import { useAudioNativeProjects } from '../features/audio-native';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { Card } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/audio-native/settings` and `/app/audio-native/settings/player` (accounts §2 "audio-native
 * (settings, settings/player …)"). Here a player's settings — its look, session length, the sites that may
 * embed it, publishing — belong to each player (`/app/audio-native/{id}/settings`, with its live preview),
 * so these pages lead there: straight to the workspace's one player, else a choice of its players.
 */
export default function AudioNativeChoosePlayerPage() {
  return (
    <RequireSignIn>
      <ChoosePlayer />
    </RequireSignIn>
  );
}

const linkClass = 'text-accent underline-offset-2 hover:underline';

function ChoosePlayer() {
  const projects = useAudioNativeProjects();
  const player = useLocation().pathname.endsWith('/player');
  const list = projects.data?.projects ?? [];
  const only = list.length === 1 ? list[0] : undefined;
  if (only) return <Navigate replace to={`/app/audio-native/${only.project_id}/settings`} />;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-10 sm:px-6">
      <nav aria-label="Audio Native" className="flex gap-4 text-sm">
        <Link to="/app/audio-native" className={linkClass}>
          Audio Native
        </Link>
      </nav>
      <header className="flex flex-col gap-1">
        <h1 className="text-3xl font-semibold tracking-tight">
          {player ? 'Player appearance' : 'Audio Native settings'}
        </h1>
        <p className="text-fg-muted">
          {player
            ? 'Each player has its own colours, size, title and author, with a live preview. Choose the player to change.'
            : 'Each player has its own settings: how it looks, the sites that may embed it and whether new conversions are published. Choose the player to change.'}
        </p>
      </header>
      {projects.isPending ? (
        <Skeleton className="h-24" />
      ) : projects.isError ? (
        <LoadError error={projects.error} onRetry={() => void projects.refetch()} />
      ) : list.length === 0 ? (
        <Card className="p-6 text-fg-muted">
          <p className="font-medium text-fg">No players yet</p>
          <p className="mt-1 text-sm">
            <Link to="/app/audio-native" className={linkClass}>
              Create a player
            </Link>{' '}
            from an article first; its settings are then here.
          </p>
        </Card>
      ) : (
        <ul aria-label="Players" className="flex flex-col gap-2">
          {list.map((p) => (
            <li key={p.project_id}>
              <Link
                to={`/app/audio-native/${p.project_id}/settings`}
                className="flex items-center justify-between gap-3 rounded-xl border border-line bg-surface p-4 shadow-xs hover:border-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
              >
                <span className="min-w-0 truncate font-medium">{p.name}</span>
                <span className="shrink-0 text-sm text-fg-muted">
                  {p.enabled ? (p.status === 'ready' ? 'Published' : 'Not converted') : 'Disabled'}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
