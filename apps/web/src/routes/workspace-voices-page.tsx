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
      <WorkspaceVoiceSection
        title="Made in this workspace"
        voiceType="personal"
        label="Voices made in this workspace"
        emptyText="Voices cloned or designed in this workspace appear here."
        emptyActions={[
          { to: '/app/voice-lab?creationType=cloneVoice', label: 'Clone a voice' },
          // Offered too: designing needs no paid plan, cloning does (a Free workspace had only the clone).
          { to: '/app/voice-lab?creationType=designVoice', label: 'Design a voice' },
        ]}
      />
      <WorkspaceVoiceSection
        title="Added from the library"
        voiceType="community"
        label="Voices added from the library"
        emptyText="Voices this workspace added from the voice library appear here."
        emptyActions={[{ to: '/app/voice-library', label: 'Browse the library' }]}
      />
    </div>
  );
}

/** One kind of the workspace's voices, newest first, with where to get some while there are none. */
function WorkspaceVoiceSection({
  title,
  voiceType,
  label,
  emptyText,
  emptyActions,
}: {
  title: string;
  voiceType: 'personal' | 'community';
  /** The list's accessible name. */
  label: string;
  emptyText: string;
  emptyActions: { to: string; label: string }[];
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold tracking-tight">
        {title}
      </h2>
      <VoiceSearchList
        filters={{ voiceType, sort: 'created_at_unix', sortDirection: 'desc' }}
        label={label}
        empty={
          <EmptyState
            title="None yet"
            actions={emptyActions.map((action) => (
              <Link key={action.to} to={action.to} className={getButtonClasses('secondary', 'md')}>
                {action.label}
              </Link>
            ))}
          >
            {emptyText}
          </EmptyState>
        }
      />
    </section>
  );
}
