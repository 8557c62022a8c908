import { MAX_PLS_BYTES } from '@parla/contracts';
import { type FormEvent, useRef, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextField } from '../../../ui/field';
import { HiddenFileInput } from '../../../ui/hidden-file-input';
import { SpinnerIcon } from '../../../ui/icons';
import { SegmentedControl } from '../../../ui/segmented-control';
import { useCreateDictionary } from '../api/create-dictionary';

type Source = 'rules' | 'file';
const sourceOptions = [
  { value: 'rules', label: 'Empty, add rules' },
  { value: 'file', label: 'Upload a .pls lexicon' },
] as const;

/**
 * Makes a dictionary: empty (its rules added in the editor) or from a PLS lexicon file (checked by the
 * server, which says what it refuses). Answers the new dictionary's id so the page opens it.
 */
export function NewDictionaryDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const { toast } = useToast();
  const create = useCreateDictionary();
  const fileInput = useRef<HTMLInputElement>(null);
  const [source, setSource] = useState<Source>('rules');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File>();
  const [problems, setProblems] = useState<{ name?: string; file?: string }>({});
  const [failure, setFailure] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const trimmed = name.trim();
    const found = {
      ...(!trimmed
        ? { name: 'Give the dictionary a name.' }
        : trimmed.length > 200
          ? { name: 'At most 200 characters.' }
          : {}),
      ...(source === 'file' && !file
        ? { file: 'Choose a .pls file.' }
        : source === 'file' && file && file.size > MAX_PLS_BYTES
          ? { file: 'The file is larger than 1 MB, the most a lexicon may be.' }
          : {}),
    };
    setProblems(found);
    if (found.name || found.file) return;
    setFailure(undefined);
    create.mutate(
      source === 'file' && file
        ? { source, name: trimmed, file }
        : { source: 'rules', name: trimmed, rules: [] },
      {
        onSuccess: (made) => {
          toast({ title: `Dictionary “${made.name}” created`, variant: 'success' });
          onCreated(made.id);
        },
        onError: (error) => setFailure(getToastMessage(error)),
      },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !create.isPending && onClose()}
      title="New pronunciation dictionary"
      description="Alias rules say a word as other words; phoneme rules say it as written sounds (IPA or CMU ARPAbet)."
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <SegmentedControl label="Start from" options={sourceOptions} value={source} onChange={setSource} />
        <TextField
          label="Name"
          value={name}
          maxLength={200}
          autoFocus
          onChange={(event) => setName(event.target.value)}
          error={problems.name}
        />
        {source === 'file' && (
          <div className="flex flex-col gap-1.5">
            <span className="text-sm font-medium">Lexicon file</span>
            <div className="flex flex-wrap items-center gap-3">
              <Button type="button" variant="secondary" onClick={() => fileInput.current?.click()}>
                Choose file
              </Button>
              <span className="min-w-0 truncate text-sm text-fg-muted">
                {file ? file.name : 'No file chosen'}
              </span>
            </div>
            <HiddenFileInput
              ref={fileInput}
              label="Lexicon file"
              accept=".pls,.xml,application/pls+xml,application/xml,text/xml"
              onFiles={(files) => setFile(files?.[0] ?? undefined)}
            />
            <p
              className={problems.file ? 'text-sm text-danger' : 'text-sm text-fg-muted'}
              role={problems.file ? 'alert' : undefined}
            >
              {problems.file ?? 'A W3C PLS lexicon, at most 1 MB and 1,000 rules.'}
            </p>
          </div>
        )}
        {failure && <FormMessage>{failure}</FormMessage>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
            {create.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
            Create
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
