import type { VoiceCollection } from '@parla/contracts';
import { clsx } from 'clsx';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useVoices } from '../features/tts/api/list-voices';
import { useCreateVoiceCollection } from '../features/voices/api/create-voice-collection';
import { useDeleteVoiceCollection } from '../features/voices/api/delete-voice-collection';
import { useVoiceCollections } from '../features/voices/api/list-voice-collections';
import { useUpdateVoiceCollection } from '../features/voices/api/update-voice-collection';
import { CollectionNameDialog } from '../features/voices/components/collection-name-dialog';
import { CollectionVoicesDialog } from '../features/voices/components/collection-voices-dialog';
import { EmptyState } from '../features/voices/components/voice-list-states';
import { VoiceSearchList } from '../features/voices/components/voice-search-list';
import { VoicesPageHeader } from '../features/voices/components/voices-nav';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/** The query parameter naming the open collection, so a collection can be linked to. */
const COLLECTION_PARAM = 'collection';

type Naming = { mode: 'create' } | { mode: 'rename'; collection: VoiceCollection };

/**
 * `/app/voice-lab/collections` and `/app/voice-library/collections` (history/voices §2 collections): the
 * workspace's voice collections — create, rename, delete — and the voices of the one open
 * (`GET /v2/voices?collection_id=`), to add and remove.
 */
export default function VoiceCollectionsPage() {
  return (
    <RequireSignIn>
      <VoiceCollections />
    </RequireSignIn>
  );
}

function VoiceCollections() {
  const id = useId();
  const { toast, toastError } = useToast();
  const [params, setParams] = useSearchParams();
  const collections = useVoiceCollections();
  const allVoices = useVoices();
  const create = useCreateVoiceCollection();
  const update = useUpdateVoiceCollection();
  const remove = useDeleteVoiceCollection();
  const [naming, setNaming] = useState<Naming | null>(null);
  const [choosingVoices, setChoosingVoices] = useState(false);
  const [toDelete, setToDelete] = useState<VoiceCollection | null>(null);

  const list = collections.data ?? [];
  const wanted = params.get(COLLECTION_PARAM);
  const open = list.find((collection) => collection.collection_id === wanted) ?? list[0];
  const openCollection = (collectionId: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (collectionId) next.set(COLLECTION_PARAM, collectionId);
        else next.delete(COLLECTION_PARAM);
        return next;
      },
      { replace: true },
    );

  const closeNaming = () => {
    setNaming(null);
    create.reset();
    update.reset();
  };
  const handleName = (name: string) => {
    if (naming?.mode === 'create') {
      create.mutate(name, {
        onSuccess: (made) => {
          toast({ title: 'Collection created', description: made.name, variant: 'success' });
          openCollection(made.collection_id);
          closeNaming();
        },
      });
    } else if (naming?.mode === 'rename') {
      update.mutate(
        { collectionId: naming.collection.collection_id, name },
        {
          onSuccess: () => {
            toast({ title: 'Collection renamed', description: name, variant: 'success' });
            closeNaming();
          },
        },
      );
    }
  };
  const handleSaveVoices = (voiceIds: string[]) => {
    if (!open) return;
    update.mutate(
      { collectionId: open.collection_id, voiceIds },
      {
        onSuccess: () => {
          toast({ title: 'Collection saved', variant: 'success' });
          setChoosingVoices(false);
          update.reset();
        },
      },
    );
  };
  const handleRemoveVoice = (voiceId: string, name: string) => {
    if (!open) return;
    update.mutate(
      { collectionId: open.collection_id, voiceIds: open.voice_ids.filter((each) => each !== voiceId) },
      {
        onSuccess: () =>
          toast({ title: 'Removed from the collection', description: name, variant: 'success' }),
        onError: (error) => toastError(error),
      },
    );
  };
  const handleDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.collection_id, {
      onSuccess: () => {
        toast({ title: 'Collection deleted', description: toDelete.name, variant: 'success' });
        if (open?.collection_id === toDelete.collection_id) openCollection(null);
        setToDelete(null);
      },
      onError: (error) => toastError(error),
    });
  };
  const namingError =
    naming?.mode === 'create'
      ? create.error?.message
      : naming?.mode === 'rename'
        ? update.error?.message
        : undefined;

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <VoicesPageHeader
        title="Voice collections"
        description="Group voices you use together — a podcast’s cast, an audiobook’s characters — from your own and the default voices."
        actions={<Button onClick={() => setNaming({ mode: 'create' })}>New collection</Button>}
      />

      {collections.isPending && (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]" aria-busy="true">
          <Skeleton className="h-48 w-full" />
          <Skeleton className="h-64 w-full" />
        </div>
      )}
      {collections.isError && (
        <LoadError error={collections.error} onRetry={() => void collections.refetch()} />
      )}
      {collections.isSuccess && list.length === 0 && (
        <EmptyState
          title="No collections yet"
          actions={<Button onClick={() => setNaming({ mode: 'create' })}>New collection</Button>}
        >
          A collection keeps the voices of one project together, so they are easy to find again.
        </EmptyState>
      )}
      {collections.isSuccess && open && (
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
          <Card>
            <nav aria-label="Collections" className="p-2">
              <ul className="flex flex-col gap-0.5">
                {list.map((collection) => {
                  const current = collection.collection_id === open.collection_id;
                  return (
                    <li key={collection.collection_id}>
                      <button
                        type="button"
                        aria-current={current ? 'true' : undefined}
                        onClick={() => openCollection(collection.collection_id)}
                        className={clsx(
                          'flex w-full cursor-pointer items-center justify-between gap-2 rounded-lg px-3 py-2 text-left text-sm transition-colors',
                          current
                            ? 'bg-subtle font-medium text-fg'
                            : 'text-fg-muted hover:bg-subtle hover:text-fg',
                        )}
                      >
                        <span className="truncate">{collection.name}</span>
                        <span className="shrink-0 text-xs tabular-nums">{collection.voice_ids.length}</span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            </nav>
          </Card>

          <section aria-labelledby={`${id}-open`} className="flex min-w-0 flex-col gap-4">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div className="flex flex-col">
                <h2 id={`${id}-open`} className="text-lg font-semibold tracking-tight">
                  {open.name}
                </h2>
                <p className="text-sm text-fg-muted tabular-nums">
                  {open.voice_ids.length} {open.voice_ids.length === 1 ? 'voice' : 'voices'}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button size="sm" onClick={() => setChoosingVoices(true)} disabled={!allVoices.data}>
                  Add or remove voices
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setNaming({ mode: 'rename', collection: open })}
                >
                  Rename
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="hover:text-danger"
                  onClick={() => setToDelete(open)}
                >
                  Delete
                </Button>
              </div>
            </div>
            <VoiceSearchList
              key={open.collection_id}
              filters={{ collectionId: open.collection_id, sort: 'name' }}
              label={`Voices in ${open.name}`}
              empty={
                <EmptyState
                  title="No voices in this collection"
                  actions={
                    <Button onClick={() => setChoosingVoices(true)} disabled={!allVoices.data}>
                      Add voices
                    </Button>
                  }
                >
                  Add your own voices or default ones.
                </EmptyState>
              }
              renderActions={(voice) => (
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={update.isPending}
                  aria-label={`Remove ${voice.name} from ${open.name}`}
                  onClick={() => handleRemoveVoice(voice.voice_id, voice.name)}
                >
                  Remove
                </Button>
              )}
            />
          </section>
        </div>
      )}

      <CollectionNameDialog
        open={naming !== null}
        title={naming?.mode === 'rename' ? `Rename ${naming.collection.name}` : 'New collection'}
        initialName={naming?.mode === 'rename' ? naming.collection.name : ''}
        submitLabel={naming?.mode === 'rename' ? 'Rename' : 'Create'}
        pending={create.isPending || (naming?.mode === 'rename' && update.isPending)}
        error={namingError}
        onSubmit={handleName}
        onClose={closeNaming}
      />
      <CollectionVoicesDialog
        collection={choosingVoices && open ? open : null}
        voices={allVoices.data ?? []}
        pending={update.isPending}
        error={choosingVoices ? update.error?.message : undefined}
        onSave={handleSaveVoices}
        onClose={() => {
          setChoosingVoices(false);
          update.reset();
        }}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete ${toDelete.name}?` : 'Delete collection?'}
        description="The collection is deleted; its voices stay in your voices."
        confirmLabel="Delete collection"
        pending={remove.isPending}
        onConfirm={handleDelete}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
