import { Link } from 'react-router';
import { CreateAudioNativeForm, SnippetBox, useAudioNativeProjects } from '../features/audio-native';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { Card } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/audio-native` (issue 30 item 4; accounts §2): the workspace's Audio Native players — make one from
 * an article's text or file, copy its embed code, and go to its settings and analytics.
 */
export default function AudioNativePage() {
  return (
    <RequireSignIn>
      <AudioNative />
    </RequireSignIn>
  );
}

function AudioNative() {
  const projects = useAudioNativeProjects();
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header>
        <h1 className="text-3xl font-semibold tracking-tight">Audio Native</h1>
        <p className="mt-1 max-w-2xl text-fg-muted">
          A player that reads your article aloud, embedded on your own site with one snippet. Listeners resume
          where they left off; you see plays, listeners and listen-through per day.
        </p>
        <Link
          to="/app/audio-native/analytics"
          className="mt-3 inline-block text-sm text-accent underline-offset-2 hover:underline"
        >
          Analytics of all players
        </Link>
      </header>
      <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
        <section aria-labelledby="an-projects" className="flex min-w-0 flex-col gap-3">
          <h2 id="an-projects" className="text-lg font-semibold">
            Players
          </h2>
          {projects.isPending ? (
            <Skeleton className="h-24" />
          ) : projects.isError ? (
            <LoadError error={projects.error} onRetry={() => void projects.refetch()} />
          ) : projects.data.projects.length === 0 ? (
            <Card className="p-6 text-fg-muted">
              <p className="font-medium text-fg">No players yet</p>
              <p className="mt-1 text-sm">
                Create one from an article: it converts to audio and gives you the embed code.
              </p>
            </Card>
          ) : (
            <ul className="flex flex-col gap-3">
              {projects.data.projects.map((p) => (
                <li key={p.project_id}>
                  <Card className="flex flex-col gap-3 p-4">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <h3 className="min-w-0 truncate font-medium">{p.name}</h3>
                      <span className="text-sm text-fg-muted">
                        {p.state === 'converting'
                          ? 'Converting…'
                          : p.status === 'ready'
                            ? 'Published'
                            : 'Not converted'}
                        {p.enabled ? '' : ' · disabled'}
                      </span>
                    </div>
                    <SnippetBox snippet={p.html_snippet} />
                    <nav aria-label={`${p.name} pages`} className="flex gap-4 text-sm">
                      <Link
                        className="text-accent underline-offset-2 hover:underline"
                        to={`/app/audio-native/${p.project_id}/settings`}
                      >
                        Settings
                      </Link>
                      <Link
                        className="text-accent underline-offset-2 hover:underline"
                        to={`/app/audio-native/${p.project_id}/analytics`}
                      >
                        Analytics
                      </Link>
                    </nav>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="an-new" className="flex flex-col gap-3">
          <h2 id="an-new" className="text-lg font-semibold">
            New player
          </h2>
          <Card className="p-4">
            <CreateAudioNativeForm />
          </Card>
        </section>
      </div>
    </div>
  );
}
