import { SHAREABLE_RESOURCE_TYPES } from '@parla/contracts';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useTranscript } from '../features/speech-to-text/api/get-transcript';
import { useTranscriptDetails } from '../features/speech-to-text/api/get-transcript-details';
import { TranscriptState } from '../features/speech-to-text/components/transcript-state';
import { TranscriptView } from '../features/speech-to-text/components/transcript-view';
import type { ShareableResourceType } from '../features/workspace/api/workspace-query-keys';
import { ShareResourceDialog } from '../features/workspace/components/share-resource-dialog';

/**
 * The resource type transcripts are shared under, once the server's contracts list it (the speech-to-text
 * API adds `transcript` to SHAREABLE_RESOURCE_TYPES); until then the page offers no Share.
 */
export const transcriptShareType: ShareableResourceType | null = (
  SHAREABLE_RESOURCE_TYPES as readonly string[]
).includes('transcript')
  ? ('transcript' as ShareableResourceType)
  : null;

/**
 * `/app/speech-to-text/:transcriptionId` (issue 19 item 6): one transcript, read along with its recording
 * in the bottom player; its progress while it is made, its error if it failed.
 */
export default function TranscriptPage() {
  return (
    <RequireSignIn>
      <Transcript />
    </RequireSignIn>
  );
}

function Transcript() {
  const { transcriptionId = '' } = useParams();
  const navigate = useNavigate();
  const details = useTranscriptDetails(transcriptionId);
  const completed = details.data?.status === 'completed';
  const transcript = useTranscript(transcriptionId, completed);
  const [sharing, setSharing] = useState(false);
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      {details.data && completed && transcript.data ? (
        <TranscriptView
          details={details.data}
          transcript={transcript.data}
          onDeleted={() => navigate('/app/speech-to-text', { replace: true })}
          onShare={transcriptShareType ? () => setSharing(true) : undefined}
        />
      ) : (
        <TranscriptState details={details} transcript={transcript} />
      )}
      {transcriptShareType && (
        <ShareResourceDialog
          resource={
            sharing && details.data
              ? { type: transcriptShareType, id: transcriptionId, name: details.data.name }
              : null
          }
          onClose={() => setSharing(false)}
        />
      )}
    </div>
  );
}
