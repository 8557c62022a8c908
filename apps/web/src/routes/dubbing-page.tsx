import { useState } from 'react';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { DubList } from '../features/dubbing/components/dub-list';
import { NewDubDialog } from '../features/dubbing/components/new-dub-dialog';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';

/**
 * `/app/dubbing` (issue 29 item 3; accounts §2): the workspace's dubs with their progress, and the
 * new-dub dialog.
 */
export default function DubbingPage() {
  return (
    <RequireSignIn>
      <Dubbing />
    </RequireSignIn>
  );
}

function Dubbing() {
  const [creating, setCreating] = useState(false);
  const [started, setStarted] = useState<string | null>(null);
  const { toast } = useToast();
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex max-w-2xl flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">Dubbing</h1>
          <p className="text-sm text-fg-muted">
            Translate the speech of a video or a recording and hear it in another language, each speaker with
            a voice matched to theirs. Fix any line in the editor, then render the dubbed video, audio or
            subtitles.
          </p>
        </div>
        <Button onClick={() => setCreating(true)}>New dub</Button>
      </header>
      <DubList highlightId={started} onCreate={() => setCreating(true)} />
      <NewDubDialog
        open={creating}
        onOpenChange={setCreating}
        onStarted={(dubbingId) => {
          setStarted(dubbingId);
          toast({
            title: 'Dubbing started',
            description: 'Its progress shows in the list.',
            variant: 'success',
          });
        }}
      />
    </div>
  );
}
