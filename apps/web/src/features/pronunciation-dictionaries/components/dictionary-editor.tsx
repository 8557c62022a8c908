import {
  type DictionaryWithRules,
  hasAdminRights,
  MAX_PRONUNCIATION_LOCATORS,
  type PhonemeAlphabet,
  type PronunciationRule,
} from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { FormMessage, TextField } from '../../../ui/field';
import { DownloadIcon, PlayIcon, SpinnerIcon, TrashIcon } from '../../../ui/icons';
import { LoadError } from '../../../ui/load-error';
import { RenameDialog } from '../../../ui/rename-dialog';
import { SegmentedControl } from '../../../ui/segmented-control';
import { SkeletonRow } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import { getWorkspaceQueryOptions } from '../../workspace';
import { useChangeRules } from '../api/change-rules';
import { downloadDictionary } from '../api/download-dictionary';
import { useDictionary } from '../api/get-dictionary';
import { hearWithDictionary } from '../api/hear-rule';
import { useUpdateDictionary } from '../api/update-dictionary';
import { useDefaultDictionaries, useSetDefaultDictionaries } from '../api/workspace-dictionaries';
import {
  ALPHABET_LABELS,
  emptyDraft,
  type RuleDraft,
  ruleFlags,
  ruleFromDraft,
  ruleSays,
} from '../dictionary-rules';

/**
 * One dictionary: rename, archive, download its latest version as PLS, make it one of the workspace's
 * defaults, and its rules — each can be heard through text to speech with this dictionary, or removed —
 * with the form that adds one. Every change of rules is a new version on the server.
 */
export function DictionaryEditor({ id }: { id: string }) {
  const dictionary = useDictionary(id);
  if (dictionary.isPending)
    return (
      <div role="status" aria-busy="true" aria-label="Loading the dictionary" className="flex flex-col gap-2">
        <SkeletonRow lineWidths={['w-1/3', 'w-2/3']} />
        <SkeletonRow lineWidths={['w-1/2', 'w-1/3']} />
      </div>
    );
  if (dictionary.isError)
    return <LoadError error={dictionary.error} onRetry={() => void dictionary.refetch()} />;
  return <Editor dictionary={dictionary.data} />;
}

function Editor({ dictionary }: { dictionary: DictionaryWithRules }) {
  const { toast, toastError } = useToast();
  const update = useUpdateDictionary();
  const [renaming, setRenaming] = useState(false);
  const archived = dictionary.archived_time_unix !== null;

  return (
    <section aria-labelledby="dictionary-title" className="flex min-w-0 flex-col gap-5">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="dictionary-title" className="truncate text-xl font-semibold">
            {dictionary.name}
          </h2>
          <p className="text-sm text-fg-muted">
            {dictionary.latest_version_rules_num === 1
              ? '1 rule'
              : `${dictionary.latest_version_rules_num.toLocaleString('en')} rules`}
            {archived && ' · archived'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => setRenaming(true)}>
            Rename
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { id: dictionary.id, archived: !archived },
                {
                  onSuccess: () =>
                    toast({
                      title: archived ? 'Dictionary restored' : 'Dictionary archived',
                      variant: 'success',
                    }),
                  onError: toastError,
                },
              )
            }
          >
            {archived ? 'Restore' : 'Archive'}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() =>
              void downloadDictionary({
                id: dictionary.id,
                name: dictionary.name,
                versionId: dictionary.latest_version_id,
              }).catch(toastError)
            }
          >
            <DownloadIcon aria-hidden="true" />
            Download .pls
          </Button>
        </div>
      </header>

      <DefaultSwitch dictionaryId={dictionary.id} />
      <RuleForm dictionaryId={dictionary.id} />
      <RuleList dictionary={dictionary} />

      {renaming && <RenameDictionaryDialog dictionary={dictionary} onClose={() => setRenaming(false)} />}
    </section>
  );
}

/** Whether a request that names no dictionary uses this one (the workspace's list holds at most three). */
function DefaultSwitch({ dictionaryId }: { dictionaryId: string }) {
  const { toastError } = useToast();
  const defaults = useDefaultDictionaries();
  const save = useSetDefaultDictionaries();
  // A workspace setting: only those with its admin rights change it (the server answers others 403).
  const workspace = useQuery(getWorkspaceQueryOptions());
  const canChange = hasAdminRights(workspace.data?.role);
  const locators = defaults.data?.pronunciation_dictionary_locators ?? [];
  const on = locators.some((l) => l.pronunciation_dictionary_id === dictionaryId);
  const full = !on && locators.length >= MAX_PRONUNCIATION_LOCATORS;
  return (
    <Switch
      label="Use for every request that names no dictionary"
      description={
        workspace.isSuccess && !canChange
          ? 'The workspace’s default list: only its admins change it.'
          : full
            ? `The workspace already uses ${MAX_PRONUNCIATION_LOCATORS} dictionaries by default, the most it may; turn one off first.`
            : 'The workspace’s default list: text to speech, dialogue and the speech sockets apply it when a request names none.'
      }
      checked={on}
      disabled={!defaults.isSuccess || !canChange || save.isPending || full}
      onCheckedChange={(checked) =>
        save.mutate(
          checked
            ? [...locators, { pronunciation_dictionary_id: dictionaryId }]
            : locators.filter((l) => l.pronunciation_dictionary_id !== dictionaryId),
          { onError: toastError },
        )
      }
    />
  );
}

const typeOptions = [
  { value: 'alias', label: 'Alias' },
  { value: 'phoneme', label: 'Phoneme' },
] as const;
const alphabetOptions = [
  { value: 'ipa', label: 'IPA' },
  { value: 'cmu-arpabet', label: 'CMU ARPAbet' },
] as const;

/** Adds a rule (a rule for a word already there replaces it); checked here as the server checks it. */
function RuleForm({ dictionaryId }: { dictionaryId: string }) {
  const { toast } = useToast();
  const change = useChangeRules();
  const [draft, setDraft] = useState<RuleDraft>(emptyDraft);
  const [problems, setProblems] = useState<Partial<Record<'word' | 'value', string>>>({});
  const [failure, setFailure] = useState<string>();
  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const made = ruleFromDraft(draft);
    setProblems(made.problems ?? {});
    if (!made.rule) return;
    setFailure(undefined);
    change.mutate(
      { id: dictionaryId, add: [made.rule] },
      {
        onSuccess: () => {
          toast({ title: `Rule for “${made.rule.string_to_replace}” saved`, variant: 'success' });
          setDraft((d) => ({ ...emptyDraft(), type: d.type, alphabet: d.alphabet }));
        },
        onError: (error) => setFailure(getToastMessage(error)),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Add a rule"
      className="flex flex-col gap-3 rounded-xl border border-line p-4"
    >
      <h3 className="font-medium">Add a rule</h3>
      <SegmentedControl
        label="Rule type"
        options={typeOptions}
        value={draft.type}
        onChange={(type) => set({ type })}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Word or phrase"
          value={draft.word}
          maxLength={200}
          onChange={(event) => set({ word: event.target.value })}
          error={problems.word}
        />
        {draft.type === 'alias' ? (
          <TextField
            label="Say it as"
            value={draft.alias}
            maxLength={400}
            onChange={(event) => set({ alias: event.target.value })}
            error={problems.value}
          />
        ) : (
          <TextField
            label="Pronunciation"
            value={draft.phoneme}
            maxLength={400}
            spellCheck={false}
            placeholder={draft.alphabet === 'ipa' ? 'təˈmɑːtoʊ' : 'T AH0 M AA1 T OW2'}
            onChange={(event) => set({ phoneme: event.target.value })}
            error={problems.value}
          />
        )}
      </div>
      {draft.type === 'phoneme' && (
        <SegmentedControl
          label="Alphabet"
          options={alphabetOptions}
          value={draft.alphabet}
          onChange={(alphabet: PhonemeAlphabet) => set({ alphabet })}
        />
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <Switch
          label="Case sensitive"
          checked={draft.caseSensitive}
          onCheckedChange={(caseSensitive) => set({ caseSensitive })}
        />
        <Switch
          label="Whole words only"
          checked={draft.wordBoundaries}
          onCheckedChange={(wordBoundaries) => set({ wordBoundaries })}
        />
      </div>
      {failure && <FormMessage>{failure}</FormMessage>}
      <div>
        <Button type="submit" disabled={change.isPending} aria-busy={change.isPending}>
          {change.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
          Add rule
        </Button>
      </div>
    </form>
  );
}

/** The latest version's rules, each with "Hear it" and "Remove". */
function RuleList({ dictionary }: { dictionary: DictionaryWithRules }) {
  const { toast, toastError } = useToast();
  const change = useChangeRules();
  const [hearing, setHearing] = useState<string>();
  const audio = useRef<HTMLAudioElement | null>(null);
  const cancel = useRef<AbortController | null>(null);
  useEffect(
    () => () => {
      cancel.current?.abort();
      audio.current?.pause();
    },
    [],
  );

  const hear = async (rule: PronunciationRule) => {
    cancel.current?.abort();
    audio.current?.pause();
    const controller = new AbortController();
    cancel.current = controller;
    setHearing(rule.string_to_replace);
    try {
      const blob = await hearWithDictionary(
        { text: rule.string_to_replace, dictionaryId: dictionary.id },
        controller.signal,
      );
      const url = URL.createObjectURL(blob);
      const player = new Audio(url);
      audio.current = player;
      player.addEventListener('ended', () => URL.revokeObjectURL(url), { once: true });
      await player.play();
    } catch (error) {
      if (!controller.signal.aborted) toastError(error);
    } finally {
      if (cancel.current === controller) setHearing(undefined);
    }
  };

  if (dictionary.rules.length === 0)
    return (
      <p className="rounded-xl border border-dashed border-line p-4 text-sm text-fg-muted">
        No rules yet: add the first one above.
      </p>
    );
  return (
    <section aria-labelledby="rules-title" className="flex flex-col gap-2">
      <h3 id="rules-title" className="font-medium">
        Rules
      </h3>
      <ul className="flex flex-col divide-y divide-line rounded-xl border border-line">
        {dictionary.rules.map((rule) => (
          <li
            key={rule.string_to_replace}
            className="flex flex-wrap items-center justify-between gap-2 px-3 py-2"
          >
            <div className="min-w-0 flex-1">
              <p className="break-words">
                <span className="font-medium">{rule.string_to_replace}</span>
                <span aria-hidden="true"> → </span>
                <span className="sr-only"> is said as </span>
                <span className={rule.type === 'phoneme' ? 'font-mono' : undefined}>{ruleSays(rule)}</span>
              </p>
              <p className="flex flex-wrap gap-1.5 text-xs text-fg-muted">
                <Badge tone={rule.type === 'alias' ? 'neutral' : 'accent'}>
                  {rule.type === 'alias' ? 'Alias' : ALPHABET_LABELS[rule.alphabet]}
                </Badge>
                {ruleFlags(rule).map((flag) => (
                  <span key={flag}>{flag}</span>
                ))}
              </p>
            </div>
            <div className="flex gap-1">
              <Button
                variant="ghost"
                size="sm"
                onClick={() => void hear(rule)}
                disabled={hearing === rule.string_to_replace}
                aria-busy={hearing === rule.string_to_replace}
                aria-label={`Hear “${rule.string_to_replace}”`}
              >
                {hearing === rule.string_to_replace ? (
                  <SpinnerIcon className="motion-safe:animate-spin" aria-hidden="true" />
                ) : (
                  <PlayIcon aria-hidden="true" />
                )}
                Hear it
              </Button>
              <Button
                variant="ghost"
                size="sm"
                disabled={change.isPending}
                aria-label={`Remove the rule for “${rule.string_to_replace}”`}
                onClick={() =>
                  change.mutate(
                    { id: dictionary.id, remove: [rule.string_to_replace] },
                    {
                      onSuccess: () =>
                        toast({ title: `Rule for “${rule.string_to_replace}” removed`, variant: 'success' }),
                      onError: toastError,
                    },
                  )
                }
              >
                <TrashIcon aria-hidden="true" />
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function RenameDictionaryDialog({
  dictionary,
  onClose,
}: {
  dictionary: { id: string; name: string };
  onClose: () => void;
}) {
  const update = useUpdateDictionary();
  return (
    <RenameDialog
      title="Rename dictionary"
      currentName={dictionary.name}
      emptyMessage="Give the dictionary a name."
      pending={update.isPending}
      onRename={(name) => update.mutateAsync({ id: dictionary.id, name })}
      onClose={onClose}
    />
  );
}
