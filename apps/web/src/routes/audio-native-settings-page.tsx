import type { AudioNativeProject } from '@parla/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  PlayerPreview,
  SnippetBox,
  useAudioNativeProject,
  useUpdateAudioNativeSettings,
} from '../features/audio-native';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { TextField } from '../ui/field';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';
import { Switch } from '../ui/switch';

/**
 * `/app/audio-native/{id}/settings` (issue 30 item 4; accounts §2 "settings, settings/player"): the
 * player's look with a live preview of the real player, the sites allowed to embed it, publishing, and
 * the embed code.
 */
export default function AudioNativeSettingsPage() {
  const { projectId = '' } = useParams();
  return (
    <RequireSignIn>
      <Settings projectId={projectId} />
    </RequireSignIn>
  );
}

function Settings({ projectId }: { projectId: string }) {
  const project = useAudioNativeProject(projectId);
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-10 sm:px-6">
      <nav className="text-sm">
        <Link to="/app/audio-native" className="text-accent underline-offset-2 hover:underline">
          Audio Native
        </Link>
      </nav>
      {project.isPending ? (
        <Skeleton className="h-40" />
      ) : project.isError ? (
        <LoadError error={project.error} onRetry={() => void project.refetch()} />
      ) : (
        <SettingsForm key={project.data.project_id} project={project.data} />
      )}
    </div>
  );
}

const COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** One origin per line, as the browser sends it (scheme://host[:port]); the lines that are not, listed. */
export function parseOrigins(text: string): { origins: string[]; wrong: string[] } {
  const origins: string[] = [];
  const wrong: string[] = [];
  for (const line of text.split(/\s+/).filter(Boolean)) {
    try {
      const url = new URL(line);
      if ((url.protocol === 'https:' || url.protocol === 'http:') && url.origin === line.replace(/\/$/, ''))
        origins.push(url.origin);
      else wrong.push(line);
    } catch {
      wrong.push(line);
    }
  }
  return { origins, wrong };
}

function SettingsForm({ project }: { project: AudioNativeProject }) {
  const update = useUpdateAudioNativeSettings(project.project_id);
  const { toast, toastError } = useToast();
  const [title, setTitle] = useState(project.settings.title);
  const [author, setAuthor] = useState(project.settings.author);
  const [small, setSmall] = useState(project.settings.small);
  const [textColor, setTextColor] = useState(project.settings.text_color);
  const [backgroundColor, setBackgroundColor] = useState(project.settings.background_color);
  const [sessionization, setSessionization] = useState(String(project.settings.sessionization));
  const [enabled, setEnabled] = useState(project.enabled);
  const [autoPublish, setAutoPublish] = useState(project.auto_publish);
  const [origins, setOrigins] = useState(project.allowed_origins.join('\n'));
  const parsed = parseOrigins(origins);
  const minutes = Number(sessionization);
  const errors = {
    textColor: COLOUR.test(textColor) ? undefined : 'A colour is #rgb or #rrggbb.',
    backgroundColor: COLOUR.test(backgroundColor) ? undefined : 'A colour is #rgb or #rrggbb.',
    sessionization:
      Number.isInteger(minutes) && minutes >= 1 && minutes <= 1440
        ? undefined
        : 'Between 1 and 1,440 minutes.',
    origins: parsed.wrong.length ? `Not an origin: ${parsed.wrong.join(', ')}` : undefined,
  };
  const valid = !Object.values(errors).some(Boolean);

  return (
    <>
      <header>
        <h1 className="text-3xl font-semibold tracking-tight">{project.name}</h1>
        <p className="mt-1 text-fg-muted">
          {project.status === 'ready' ? 'Published' : 'Not converted yet'} ·{' '}
          <Link
            to={`/app/audio-native/${project.project_id}/analytics`}
            className="text-accent underline-offset-2 hover:underline"
          >
            Analytics
          </Link>
        </p>
      </header>
      <div className="grid gap-6 md:grid-cols-2">
        <Card className="p-4">
          <form
            aria-label="Player settings"
            className="flex flex-col gap-4"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (!valid) return;
              update.mutate(
                {
                  title,
                  author,
                  small,
                  text_color: textColor,
                  background_color: backgroundColor,
                  sessionization: minutes,
                  enabled,
                  auto_publish: autoPublish,
                  allowed_origins: parsed.origins,
                },
                {
                  onSuccess: () => toast({ title: 'Settings saved', variant: 'success' }),
                  onError: toastError,
                },
              );
            }}
          >
            <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} />
            <TextField label="Author" value={author} onChange={(e) => setAuthor(e.target.value)} />
            <Switch label="Small player" checked={small} onCheckedChange={setSmall} />
            <div className="grid grid-cols-2 gap-3">
              <TextField
                label="Text colour"
                value={textColor}
                onChange={(e) => setTextColor(e.target.value)}
                error={errors.textColor}
              />
              <TextField
                label="Background colour"
                value={backgroundColor}
                onChange={(e) => setBackgroundColor(e.target.value)}
                error={errors.backgroundColor}
              />
            </div>
            <TextField
              label="Session length (minutes)"
              inputMode="numeric"
              value={sessionization}
              onChange={(e) => setSessionization(e.target.value)}
              error={errors.sessionization}
              description="A listener who comes back later than this counts again."
            />
            <div className="flex flex-col gap-1.5">
              <label htmlFor="an-origins" className="text-sm font-medium text-fg">
                Allowed sites
              </label>
              <textarea
                id="an-origins"
                rows={3}
                value={origins}
                onChange={(e) => setOrigins(e.target.value)}
                aria-invalid={errors.origins ? true : undefined}
                aria-describedby="an-origins-note"
                placeholder="https://blog.example.com"
                className="w-full rounded-lg border border-line bg-surface p-3 font-mono text-sm text-fg"
              />
              <p
                id="an-origins-note"
                className={errors.origins ? 'text-sm text-danger' : 'text-sm text-fg-muted'}
              >
                {errors.origins ??
                  'One origin per line. Empty: any site may embed the player. Listed: only those sites (and this preview).'}
              </p>
            </div>
            <Switch label="Player enabled" checked={enabled} onCheckedChange={setEnabled} />
            <Switch
              label="Publish each new conversion"
              checked={autoPublish}
              onCheckedChange={setAutoPublish}
              description="Off: the audio published now stays until you turn this on again."
            />
            <div>
              <Button type="submit" disabled={!valid || update.isPending}>
                {update.isPending ? 'Saving…' : 'Save settings'}
              </Button>
            </div>
          </form>
        </Card>
        <div className="flex min-w-0 flex-col gap-6">
          <PlayerPreview
            projectId={project.project_id}
            settings={{
              title,
              author,
              small,
              textColor: COLOUR.test(textColor) ? textColor : project.settings.text_color,
              backgroundColor: COLOUR.test(backgroundColor)
                ? backgroundColor
                : project.settings.background_color,
            }}
          />
          <section aria-labelledby="an-embed" className="flex flex-col gap-2">
            <h2 id="an-embed" className="text-sm font-medium">
              Embed code
            </h2>
            <SnippetBox snippet={project.html_snippet} />
            <p className="text-sm text-fg-muted">
              A page with a Content-Security-Policy needs this server in its script-src, media-src,
              connect-src and img-src.
            </p>
          </section>
        </div>
      </div>
    </>
  );
}
