import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useUser } from '../features/users/api/get-user';
import { useSharedVoice } from '../features/voices/api/find-shared-voice';
import { AddLibraryVoiceDialog } from '../features/voices/components/add-library-voice-dialog';
import { BuiltInBadge } from '../features/voices/components/built-in-badge';
import { PreviewButton } from '../features/voices/components/preview-button';
import { VoicesNav } from '../features/voices/components/voices-nav';
import { usePreviewPlayer } from '../features/voices/use-preview-player';
import { languageName } from '../features/voices/voice-labels';
import { voicePreviewPlayback } from '../features/voices/voice-playback';
import { describeLibraryVoice } from '../features/voices/voice-rules';
import { formatDate, fromUnixSeconds } from '../lib/format-date';
import { Badge } from '../ui/badge';
import { Button, getButtonClasses } from '../ui/button';
import { Card } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

const numbers = new Intl.NumberFormat('en-US');

/**
 * `/app/voice-lab/share/{publicUserId}/{voiceId}` (history/voices §2 "Voice lab sharing"): one shared
 * voice, found among its owner's shared voices, with its details, its preview and Add; or a plain "not
 * available" when the owner does not share it (any more).
 */
export default function SharedVoicePage() {
  return (
    <RequireSignIn>
      <SharedVoice />
    </RequireSignIn>
  );
}

function SharedVoice() {
  const { publicUserId = '', voiceId = '' } = useParams();
  const user = useUser();
  const preview = usePreviewPlayer();
  const found = useSharedVoice(publicUserId, voiceId);
  const [adding, setAdding] = useState(false);
  const voice = found.data ?? null;
  const own = voice !== null && voice.public_owner_id === user.data?.public_user_id;
  const playback = voice ? voicePreviewPlayback(voice) : null;
  const language = languageName(voice?.language);

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <VoicesNav />
      {found.isPending && (
        <Card className="flex flex-col gap-4 p-6" aria-busy="true" aria-label="Loading the voice">
          <Skeleton className="h-8 w-1/2" />
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-20 w-full" />
        </Card>
      )}
      {found.isError && <LoadError error={found.error} onRetry={() => void found.refetch()} />}
      {found.isSuccess && voice === null && (
        <div className="flex flex-col items-start gap-4 rounded-xl border border-dashed border-line px-6 py-12">
          <h1 className="text-2xl font-semibold tracking-tight">This voice is not available</h1>
          <p className="max-w-lg text-sm text-fg-muted">
            Its owner does not share it in the voice library (any more), or the link is not complete. Voices
            already added from it stop working while it is not shared.
          </p>
          <Link to="/app/voice-library" className={getButtonClasses('primary', 'md')}>
            Browse the voice library
          </Link>
        </div>
      )}
      {voice && (
        <Card className="flex flex-col gap-5 p-6">
          <div className="flex items-start gap-4">
            <PreviewButton
              label={`the preview of ${voice.name}`}
              playing={preview.isPlaying(voice.voice_id)}
              onToggle={playback ? () => preview.toggle(playback) : undefined}
            />
            <div className="flex min-w-0 flex-1 flex-col gap-2">
              <p className="text-xs font-medium tracking-wide text-fg-muted uppercase">Shared voice</p>
              <h1 className="text-2xl font-semibold tracking-tight">{voice.name}</h1>
              <span className="flex flex-wrap gap-1">
                {voice.featured && <BuiltInBadge />}
                {describeLibraryVoice(voice).map((trait) => (
                  <Badge key={trait}>{trait}</Badge>
                ))}
                {voice.live_moderation_enabled && <Badge tone="warning">Live moderation</Badge>}
                {!voice.free_users_allowed && <Badge>Paid plans only</Badge>}
              </span>
            </div>
          </div>
          {voice.description && <p className="text-sm leading-6 text-fg">{voice.description}</p>}
          <dl className="grid grid-cols-2 gap-4 border-t border-line pt-4 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-xs text-fg-muted">Added</dt>
              <dd className="tabular-nums">
                {numbers.format(voice.cloned_by_count)} {voice.cloned_by_count === 1 ? 'time' : 'times'}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-fg-muted">Shared</dt>
              <dd>{formatDate(fromUnixSeconds(voice.date_unix))}</dd>
            </div>
            {language && (
              <div>
                <dt className="text-xs text-fg-muted">Language</dt>
                <dd>{language}</dd>
              </div>
            )}
          </dl>
          <div className="flex flex-wrap items-center justify-end gap-2 border-t border-line pt-4">
            {own ? (
              <p className="text-sm text-fg-muted">This is one of your voices.</p>
            ) : voice.is_added_by_user ? (
              <Badge tone="success" dot>
                Added to your voices
              </Badge>
            ) : (
              <Button onClick={() => setAdding(true)}>Add to my voices</Button>
            )}
          </div>
        </Card>
      )}
      <AddLibraryVoiceDialog voice={adding ? voice : null} onClose={() => setAdding(false)} />
    </div>
  );
}
