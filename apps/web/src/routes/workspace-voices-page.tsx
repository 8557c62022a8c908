import { useId } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { EmptyState } from '../features/voices/components/voice-list-states';
import { VoiceSearchList } from '../features/voices/components/voice-search-list';
import { VoicesPageHeader } from '../features/voices/components/voices-nav';
import { getButtonClasses } from '../ui/button';

/**
 * `/app/workspace-voices` (history/voices §2 workspace voices): the workspace's own voices — made here
 * (`voice_type=personal`) and added from the library (`voice_type=community`) — to browse and hear.
 */
export default function WorkspaceVoicesPage() {
  return (
    <RequireSignIn>
      <WorkspaceVoices />
    </RequireSignIn>
  );
}

function WorkspaceVoices() {
  const id = useId();
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <VoicesPageHeader
        title="Workspace voices"
        description="Every voice of this workspace, shared by all its members."
        actions={
          <Link to="/app/voice-lab" className={getButtonClasses('secondary', 'md')}>
            Manage in the voice lab
          </Link>
        }
      />
      <section aria-labelledby={`${id}-personal`} className="flex flex-col gap-3">
        <h2 id={`${id}-personal`} className="text-lg font-semibold tracking-tight">
          Made in this workspace
        </h2>
        <VoiceSearchList
          filters={{ voiceType: 'personal', sort: 'created_at_unix', sortDirection: 'desc' }}
          label="Voices made in this workspace"
          empty={
            <EmptyState
              title="None yet"
              actions={
                <Link
                  to="/app/voice-lab?creationType=cloneVoice"
                  className={getButtonClasses('secondary', 'md')}
                >
                  Clone a voice
                </Link>
              }
            >
              Voices cloned or designed in this workspace appear here.
            </EmptyState>
          }
        />
      </section>
      <section aria-labelledby={`${id}-community`} className="flex flex-col gap-3">
        <h2 id={`${id}-community`} className="text-lg font-semibold tracking-tight">
          Added from the library
        </h2>
        <VoiceSearchList
          filters={{ voiceType: 'community', sort: 'created_at_unix', sortDirection: 'desc' }}
          label="Voices added from the library"
          empty={
            <EmptyState
              title="None yet"
              actions={
                <Link to="/app/voice-library" className={getButtonClasses('secondary', 'md')}>
                  Browse the library
                </Link>
              }
            >
              Voices this workspace added from the voice library appear here.
            </EmptyState>
          }
        />
      </section>
    </div>
  );
}
