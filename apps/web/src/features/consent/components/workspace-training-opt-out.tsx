import { trainingOptOutMessages } from '@parla/contracts';
import { useState } from 'react';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { FormMessage } from '../../../ui/field';
import { Skeleton } from '../../../ui/skeleton';
import { useTrainingOptOut } from '../api/get-training-opt-out';
import { useUpdateTrainingOptOut } from '../api/update-training-opt-out';
import { DataTrainingDialog } from './data-training-dialog';

/**
 * Opens the data-training dialog once the workspace's setting has arrived (it is fetched while `open`), and
 * saves a confirmed change with the accounts §8 toasts. `onDone` runs when the dialog closes, whatever the
 * answer. Used by the settings page and by the app shell's `training_opt_out=true` (accounts §2).
 */
export function TrainingOptOutDialogController({ open, onDone }: { open: boolean; onDone: () => void }) {
  const { data } = useTrainingOptOut({ enabled: open });
  const update = useUpdateTrainingOptOut();
  const { toast } = useToast();
  if (!data) return null;
  const current = data.training_opt_out.training_opt_out;
  return (
    <DataTrainingDialog
      open={open}
      value={current}
      canChange={data.can_change}
      onClose={(result) => {
        onDone();
        if (result === null || result === current) return;
        update.mutate(result, {
          onSuccess: () => toast({ title: trainingOptOutMessages.updated, variant: 'success' }),
          onError: () => toast({ title: trainingOptOutMessages.updateFailed, variant: 'error' }),
        });
      }}
    />
  );
}

/**
 * The workspace's data-training opt-out as a settings row: its state, when it last changed, and a button that
 * opens the §5 dialog (read-only for members). For the settings page and the workspace security page.
 */
export function WorkspaceTrainingOptOut() {
  const { data, error, refetch } = useTrainingOptOut();
  const [open, setOpen] = useState(false);

  if (error) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <FormMessage>{getToastMessage(error)}</FormMessage>
        <Button size="sm" variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!data) return <Skeleton className="h-10 w-full" />;

  const { training_opt_out: optOut, timestamp_unix: changedAt } = data.training_opt_out;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div className="flex flex-col gap-1 text-sm">
        <span className="flex items-center gap-2 font-medium">
          Data training
          <Badge tone={optOut ? 'success' : 'neutral'} dot>
            {optOut ? 'Opted out' : 'Allowed'}
          </Badge>
        </span>
        <span className="text-fg-muted">
          {optOut
            ? "The workspace's content is not used to train or improve models."
            : "The workspace's content may be used to train and improve models."}
          {changedAt ? ` Changed ${formatDate(fromUnixSeconds(changedAt))}.` : ''}
        </span>
      </div>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {data.can_change ? 'Change' : 'View'}
      </Button>
      <TrainingOptOutDialogController open={open} onDone={() => setOpen(false)} />
    </div>
  );
}
