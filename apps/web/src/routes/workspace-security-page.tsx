import type { ReactNode } from 'react';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { WorkspaceTrainingOptOut } from '../features/consent/components/workspace-training-opt-out';
import { useWorkspaceSummary } from '../features/workspace/api/get-workspace';
import { SessionTimeoutSetting } from '../features/workspace/components/session-timeout-setting';
import { WorkspacePageHeader } from '../features/workspace/components/workspace-nav';
import { Card, CardContent, CardHeader } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/workspace/security` (accounts §2/§3): the workspace's session inactivity timeout and its
 * data-training opt-out (the consent feature's row). Admins (and editors) change them; members read.
 */
export default function WorkspaceSecurityPage() {
  return (
    <RequireSignIn>
      <WorkspaceSecurity />
    </RequireSignIn>
  );
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <div>
          <h2 className="text-base font-semibold">{title}</h2>
          <p className="mt-1 text-sm text-fg-muted">{description}</p>
        </div>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function WorkspaceSecurity() {
  const summary = useWorkspaceSummary();
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <WorkspacePageHeader
        title="Security"
        description={<p>How long sign-ins last, and what the workspace's content may be used for.</p>}
      />
      <Section title="Sessions" description="Sign members out when they leave Parla open but unattended.">
        {summary.isPending ? (
          <div className="flex flex-col gap-2" aria-busy="true">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-10 w-full sm:max-w-xs" />
          </div>
        ) : summary.isError ? (
          <LoadError error={summary.error} onRetry={() => void summary.refetch()} />
        ) : (
          <SessionTimeoutSetting workspace={summary.data} />
        )}
      </Section>
      <Section
        title="Data training"
        description="Whether the workspace's content may be used to train and improve models."
      >
        <WorkspaceTrainingOptOut />
      </Section>
    </div>
  );
}
