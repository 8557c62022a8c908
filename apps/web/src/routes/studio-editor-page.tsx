import { useParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useStudioProject } from '../features/studio/api/studio-api';
import { StudioEditor } from '../features/studio/components/studio-editor';
import { useModels } from '../features/tts/api/list-models';
import { useVoices } from '../features/tts/api/list-voices';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/studio/{id}` (issue 30 item 3; accounts §2 allowed redirect shape): one Studio project's editor.
 */
export default function StudioEditorPage() {
  return (
    <RequireSignIn>
      <Editor />
    </RequireSignIn>
  );
}

function Editor() {
  const { projectId = '' } = useParams();
  const project = useStudioProject(projectId);
  const voices = useVoices();
  const models = useModels();
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 lg:py-8">
      {project.isPending ? (
        <div role="status" aria-label="Loading the project" className="flex flex-col gap-3">
          <Skeleton className="h-8 w-1/2" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : project.isError ? (
        <>
          <h1 className="text-2xl font-semibold tracking-tight">Studio</h1>
          <LoadError error={project.error} onRetry={() => void project.refetch()} />
        </>
      ) : (
        <StudioEditor project={project.data} voices={voices.data ?? []} models={models.data ?? []} />
      )}
    </div>
  );
}
