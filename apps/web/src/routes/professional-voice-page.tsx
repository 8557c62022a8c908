import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useUser } from '../features/users/api/get-user';
import { useVoice } from '../features/voices/api/get-voice';
import { PvcDetailsForm } from '../features/voices/components/pvc-details-form';
import { PvcFlow } from '../features/voices/components/pvc-flow';
import { PvcPlanGate } from '../features/voices/components/pvc-plan-gate';
import { PvcStageBadge } from '../features/voices/components/pvc-stage-badge';
import { PvcStepsNav } from '../features/voices/components/pvc-steps-nav';
import { VoicesPageHeader } from '../features/voices/components/voices-nav';
import { checkPvcPlan, type PvcPlanCheck, pvcPath } from '../features/voices/pvc-rules';
import { languageName } from '../features/voices/voice-labels';
import { isHttpError } from '../lib/http-error';
import { getButtonClasses } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/voice-lab/professional` and `/app/voice-lab/professional/{voiceId}` (issue 18 item 5; history/voices
 * §4 "Professional voice clone flow"): create a professional clone, then add long samples, separate and
 * pick speakers, read the captcha aloud and train it. A voice's page opens where its flow stopped.
 */
export default function ProfessionalVoicePage() {
  return (
    <RequireSignIn>
      <ProfessionalVoice />
    </RequireSignIn>
  );
}

const INTRO =
  'A professional clone learns a voice from long recordings of it. Only the voice’s owner can make one: a sentence read aloud proves it.';

function ProfessionalVoice() {
  const { voiceId } = useParams();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <Link
        to="/app/voice-lab"
        className="-mb-2 self-start rounded-md text-sm font-medium text-fg-muted hover:text-fg"
      >
        ← Voice lab
      </Link>
      {voiceId === undefined ? <NewProfessionalVoice /> : <ExistingProfessionalVoice voiceId={voiceId} />}
    </div>
  );
}

function NewProfessionalVoice() {
  const navigate = useNavigate();
  const user = useUser();
  const subscription = user.data?.subscription;
  // Read once: creating the voice uses the slot, and the page must not turn into the upgrade notice then.
  const [check, setCheck] = useState<PvcPlanCheck | null>(null);
  useEffect(() => {
    if (subscription && check === null) setCheck(checkPvcPlan(subscription));
  }, [subscription, check]);
  return (
    <>
      <VoicesPageHeader title="Professional voice clone" description={INTRO} />
      {check === null && !user.isError && <Skeleton className="h-80 w-full" />}
      {user.isError && <LoadError error={user.error} onRetry={() => void user.refetch()} />}
      {check && !check.allowed && <PvcPlanGate check={check} />}
      {check?.allowed && (
        <>
          <PvcStepsNav current="details" done={new Set()} reachable={new Set()} onOpen={() => undefined} />
          <Card aria-labelledby="pvc-details-heading">
            <CardContent className="flex flex-col gap-4 py-5">
              <h2 id="pvc-details-heading" className="text-lg font-semibold tracking-tight">
                Details
              </h2>
              <PvcDetailsForm
                onCreated={(id) => void navigate(pvcPath(id), { replace: true })}
                onCancel={() => void navigate('/app/voice-lab')}
              />
            </CardContent>
          </Card>
        </>
      )}
    </>
  );
}

function ExistingProfessionalVoice({ voiceId }: { voiceId: string }) {
  const voice = useVoice(voiceId);
  const notFound =
    (voice.isError && isHttpError(voice.error) && voice.error.status === 404) ||
    (voice.data !== undefined && voice.data.category !== 'professional');
  if (voice.isPending)
    return (
      <div className="flex flex-col gap-4" aria-busy="true">
        <span className="sr-only">Loading the voice…</span>
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-4 w-full max-w-md" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  if (notFound)
    return (
      <div className="flex flex-col items-start gap-4 rounded-xl border border-dashed border-line px-6 py-12">
        <h1 className="text-2xl font-semibold tracking-tight">This professional voice was not found</h1>
        <p className="max-w-lg text-sm text-fg-muted">
          It may have been deleted, or it belongs to another workspace.
        </p>
        <Link to="/app/voice-lab" className={getButtonClasses('secondary', 'md')}>
          Back to the voice lab
        </Link>
      </div>
    );
  if (!voice.data) return <LoadError error={voice.error} onRetry={() => void voice.refetch()} />;
  const data = voice.data;
  const language = languageName(data.labels.language);
  return (
    <>
      <VoicesPageHeader
        title={data.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <PvcStageBadge voice={data} />
            <span>Professional voice clone{language ? ` · ${language}` : ''}</span>
          </span>
        }
      />
      <PvcFlow voice={data} />
    </>
  );
}
