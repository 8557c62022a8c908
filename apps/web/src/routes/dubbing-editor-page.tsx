import { useParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useDub } from '../features/dubbing/api/get-dub';
import { useDubbingResource } from '../features/dubbing/api/get-dubbing-resource';
import { DubbingEditor } from '../features/dubbing/components/dubbing-editor';
import { DubbingState } from '../features/dubbing/components/dubbing-state';

/** `/app/dubbing/:dubbingId` (issue 29 item 3): the dubbing editor of one dub; its progress until it is made. */
export default function DubbingEditorPage() {
  return (
    <RequireSignIn>
      <Editor />
    </RequireSignIn>
  );
}

function Editor() {
  const { dubbingId = '' } = useParams();
  const dub = useDub(dubbingId);
  const resource = useDubbingResource(dubbingId, dub.data?.status === 'dubbed');
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      {dub.data?.status === 'dubbed' && resource.data ? (
        <DubbingEditor dub={dub.data} resource={resource.data} />
      ) : (
        <DubbingState dub={dub} resource={resource} />
      )}
    </div>
  );
}
