import { trainingOptOutMessages } from '@parla/contracts';
import { useEffect, useState } from 'react';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { Switch } from '../../../ui/switch';
import { Tooltip } from '../../../ui/tooltip';

export interface DataTrainingDialogProps {
  open: boolean;
  /** The workspace's setting now: the switch starts here. */
  value: boolean;
  /** accounts §6: only workspace admins may change it; otherwise the dialog shows without changing. */
  canChange: boolean;
  /** accounts §5: Confirm gives the switch's value; Cancel, Escape and the overlay give null. */
  onClose: (result: boolean | null) => void;
}

/**
 * The data-training confirmation dialog (accounts §5): a switch for the workspace's training opt-out,
 * disabled with the tooltip "Only workspace admins can change this setting." for a caller who may not
 * change it; Confirm stays disabled while the switch equals its original value.
 */
export function DataTrainingDialog({ open, value, canChange, onClose }: DataTrainingDialogProps) {
  const [checked, setChecked] = useState(value);
  // Each opening starts from the setting as it stands.
  useEffect(() => {
    if (open) setChecked(value);
  }, [open, value]);

  const unchanged = checked === value;
  const toggle = (
    <Switch
      label="Opt out of data training"
      description="When on, nothing made in this workspace is used to train or improve models."
      checked={checked}
      onCheckedChange={setChecked}
      disabled={!canChange}
    />
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose(null);
      }}
      title="Data training"
      description="Choose whether this workspace's content may be used to train and improve models."
      footer={
        <>
          <Button variant="secondary" onClick={() => onClose(null)}>
            Cancel
          </Button>
          <Button disabled={unchanged} onClick={() => onClose(checked)}>
            Confirm
          </Button>
        </>
      }
    >
      {canChange ? (
        toggle
      ) : (
        <Tooltip content={trainingOptOutMessages.adminsOnly} wrapDisabled>
          {toggle}
        </Tooltip>
      )}
    </Dialog>
  );
}
