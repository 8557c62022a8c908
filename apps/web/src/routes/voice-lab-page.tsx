import type { VoiceResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useVoices } from '../features/tts/api/list-voices';
import { useUser } from '../features/users/api/get-user';
import { useDeleteVoice } from '../features/voices/api/delete-voice';
import { flattenVoicePages, useVoiceSearch } from '../features/voices/api/search-voices';
import { AddVoiceDialog, type AddVoiceStep } from '../features/voices/components/add-voice-dialog';
import { EditVoiceDialog } from '../features/voices/components/edit-voice-dialog';
import { OwnVoiceRow } from '../features/voices/components/own-voice-row';
import { ShareVoiceDialog } from '../features/voices/components/share-voice-dialog';
import { VerifyVoiceDialog } from '../features/voices/components/verify-voice-dialog';
import {
  EmptyState,
  LoadMoreButton,
  VoiceList,
  VoiceListSkeleton,
} from '../features/voices/components/voice-list-states';
import { VoiceSafetyDialog } from '../features/voices/components/voice-safety-dialog';
import { VoicesPageHeader } from '../features/voices/components/voices-nav';
import { usePreviewPlayer } from '../features/voices/use-preview-player';
import { useVoiceSafetyAlerts } from '../features/voices/use-voice-safety-alerts';
import { voicePreviewPlayback } from '../features/voices/voice-playback';
import { readVoiceSharing, VOICE_SEARCH_DEBOUNCE_MS } from '../features/voices/voice-rules';
import { CREATION_TYPE_PARAM, isCloneFlow } from '../features/voices/voice-safety-rules';
import { ShareResourceDialog } from '../features/workspace/components/share-resource-dialog';
import { useToast } from '../lib/toasts/use-toast';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { Button, getButtonClasses } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { LoadError } from '../ui/load-error';
import { SearchField } from '../ui/search-field';

/**
 * `/app/voice-lab` (history/voices §2 voice lab): the workspace's own voices — cloned, designed and added
 * from the library, and those members shared with the caller — to preview, edit, share (in the library, and
 * within the workspace, §7), verify and delete, and the ways to add one.
 * `?creationType=cloneVoice` or `designVoice` opens the add dialog on that form. The voice list is watched
 * for safety controls (§4).
 */
export default function VoiceLabPage() {
  return (
    <RequireSignIn>
      <VoiceLab />
    </RequireSignIn>
  );
}

function VoiceLab() {
  const id = useId();
  const user = useUser();
  const { toast, toastError } = useToast();
  const preview = usePreviewPlayer();
  const [searchParams, setSearchParams] = useSearchParams();
  const [choosing, setChoosing] = useState(false);
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), VOICE_SEARCH_DEBOUNCE_MS);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [sharingId, setSharingId] = useState<string | null>(null);
  const [workspaceSharing, setWorkspaceSharing] = useState<VoiceResponse | null>(null);
  const [toDelete, setToDelete] = useState<VoiceResponse | null>(null);
  const [toVerify, setToVerify] = useState<VoiceResponse | null>(null);

  const list = useVoiceSearch({
    voiceType: 'non-default',
    search,
    sort: 'created_at_unix',
    sortDirection: 'desc',
  });
  const voices = flattenVoicePages(list.data);
  // §4 watches the voice list every picker uses (`GET /v1/voices`), which every change here refreshes.
  const allVoices = useVoices();
  const safety = useVoiceSafetyAlerts(allVoices.data, {
    userId: user.data?.user_id,
    cloneFlow: isCloneFlow(searchParams),
  });

  const creationType = searchParams.get(CREATION_TYPE_PARAM);
  const step: AddVoiceStep | null =
    creationType === 'cloneVoice' || creationType === 'designVoice'
      ? creationType
      : choosing
        ? 'choose'
        : null;
  const setStep = (next: AddVoiceStep | null) => {
    setChoosing(next === 'choose');
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === 'cloneVoice' || next === 'designVoice') params.set(CREATION_TYPE_PARAM, next);
        else params.delete(CREATION_TYPE_PARAM);
        return params;
      },
      { replace: true },
    );
  };

  const subscription = user.data?.subscription;
  const total = search === '' ? list.data?.pages[0]?.total_count : undefined;
  const atLimit = subscription !== undefined && total !== undefined && total >= subscription.voice_limit;

  const remove = useDeleteVoice();
  const handleDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.voice_id, {
      onSuccess: () => {
        toast({ title: 'Voice deleted', description: toDelete.name, variant: 'success' });
        setToDelete(null);
      },
      onError: (error) => toastError(error),
    });
  };
  const deletingShared = toDelete ? readVoiceSharing(toDelete)?.status === 'enabled' : false;

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <VoicesPageHeader
        title="Voice lab"
        description="Your own voices: clone one from recordings, design one from a description, or add one from the library. They appear in every voice picker."
        actions={<Button onClick={() => setStep('choose')}>Add a voice</Button>}
      />

      <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="flex flex-col gap-0.5">
            <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
              My voices
            </h2>
            {subscription && total !== undefined && (
              <p className={clsx('text-sm tabular-nums', atLimit ? 'text-warning' : 'text-fg-muted')}>
                {total} of {subscription.voice_limit} custom voices on your plan
                {atLimit && (
                  <>
                    {' · '}
                    <Link to="/app/subscription" className="font-medium underline-offset-2 hover:underline">
                      Upgrade for more
                    </Link>
                  </>
                )}
              </p>
            )}
          </div>
          <search className="w-full sm:w-72">
            <SearchField
              id={`${id}-search`}
              label="Search my voices"
              value={searchInput}
              onChange={setSearchInput}
              placeholder="Search my voices"
            />
          </search>
        </div>

        {list.isPending && <VoiceListSkeleton label="Loading my voices" />}
        {list.isError && !list.data && <LoadError error={list.error} onRetry={() => void list.refetch()} />}
        {list.isSuccess && voices.length === 0 && search !== '' && (
          <EmptyState
            title="No voices match"
            actions={
              <Button variant="secondary" onClick={() => setSearchInput('')}>
                Clear search
              </Button>
            }
          >
            Nothing in your voices matches “{search}”.
          </EmptyState>
        )}
        {list.isSuccess && voices.length === 0 && search === '' && (
          <EmptyState
            title="No voices of your own yet"
            actions={
              <>
                <Button onClick={() => setStep('cloneVoice')}>Clone a voice</Button>
                <Button variant="secondary" onClick={() => setStep('designVoice')}>
                  Design a voice
                </Button>
                <Link to="/app/voice-library" className={getButtonClasses('secondary', 'md')}>
                  Browse the library
                </Link>
              </>
            }
          >
            Clone a voice from a few recordings, design one from a description, or add one that someone
            shared.
          </EmptyState>
        )}
        {voices.length > 0 && (
          <VoiceList label="My voices" refreshing={list.isPlaceholderData}>
            {voices.map((voice) => {
              const playback = voicePreviewPlayback(voice);
              return (
                <OwnVoiceRow
                  key={voice.voice_id}
                  voice={voice}
                  playing={preview.isPlaying(voice.voice_id)}
                  onPreview={playback ? () => preview.toggle(playback) : undefined}
                  onEdit={() => setEditingId(voice.voice_id)}
                  onShare={() => setSharingId(voice.voice_id)}
                  onShareWithWorkspace={voice.is_owner ? () => setWorkspaceSharing(voice) : undefined}
                  onVerify={() => setToVerify(voice)}
                  onDelete={() => setToDelete(voice)}
                />
              );
            })}
          </VoiceList>
        )}
        {list.isFetchNextPageError && (
          <LoadError error={list.error} onRetry={() => void list.fetchNextPage()} />
        )}
        {list.hasNextPage && !list.isFetchNextPageError && !list.isPlaceholderData && (
          <LoadMoreButton loading={list.isFetchingNextPage} onLoadMore={() => void list.fetchNextPage()} />
        )}
      </section>

      <AddVoiceDialog
        step={step}
        onStepChange={setStep}
        onClose={() => setStep(null)}
        canClone={subscription?.can_use_instant_voice_cloning}
        canCloneProfessionally={subscription?.can_use_professional_voice_cloning}
        onCreated={() => setStep(null)}
      />
      <EditVoiceDialog
        voice={voices.find((voice) => voice.voice_id === editingId) ?? null}
        onClose={() => setEditingId(null)}
      />
      <ShareVoiceDialog
        voice={voices.find((voice) => voice.voice_id === sharingId) ?? null}
        onClose={() => setSharingId(null)}
      />
      <ShareResourceDialog
        resource={
          workspaceSharing
            ? { type: 'voice', id: workspaceSharing.voice_id, name: workspaceSharing.name }
            : null
        }
        onClose={() => setWorkspaceSharing(null)}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete ${toDelete.name}?` : 'Delete voice?'}
        description={
          deletingShared
            ? 'The voice and its samples are deleted for good, it leaves the voice library, and the copies others added stop working. Speech you generated with it stays in your history.'
            : 'The voice and its samples are deleted for good. Speech you generated with it stays in your history.'
        }
        confirmLabel="Delete voice"
        pending={remove.isPending}
        onConfirm={handleDelete}
        onCancel={() => setToDelete(null)}
      />
      <VerifyVoiceDialog voice={toVerify} onClose={() => setToVerify(null)} />
      <VoiceSafetyDialog alert={safety.alert} onClose={safety.dismiss} onVerify={setToVerify} />
    </div>
  );
}
