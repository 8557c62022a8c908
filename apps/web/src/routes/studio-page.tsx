import { useState } from 'react';
import { useNavigate } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { NewProjectDialog } from '../features/studio/components/new-project-dialog';
import { ProjectList, studioEditorPath } from '../features/studio/components/project-list';
import { useModels } from '../features/tts/api/list-models';
import { useVoices } from '../features/tts/api/list-voices';
import { Button } from '../ui/button';

/**
 * `/app/studio` (issue 30 item 3; accounts §2): the workspace's long-form projects and audiobooks, and the
 * new-project dialog.
 */
export default function StudioPage() {
  return (
    <RequireSignIn>
      <Studio />
    </RequireSignIn>
  );
}

function Studio() {
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const voices = useVoices();
  const models = useModels();
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex max-w-2xl flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">Studio</h1>
          <p className="text-sm text-fg-muted">
            Long-form audio: import a book, an article or a script, give each paragraph its voice, and convert
            it chapter by chapter into an audiobook you can export as M4B, MP3 or WAV.
          </p>
        </div>
        <Button onClick={() => setCreating(true)}>New project</Button>
      </header>
      <ProjectList onCreate={() => setCreating(true)} />
      <NewProjectDialog
        open={creating}
        onOpenChange={setCreating}
        voices={voices.data ?? []}
        models={models.data ?? []}
        onCreated={(projectId) => void navigate(studioEditorPath(projectId))}
      />
    </div>
  );
}
