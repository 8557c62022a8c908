import * as DialogPrimitive from '@radix-ui/react-dialog';
import { clsx } from 'clsx';
import { getButtonClasses } from './button';
import { CloseIcon } from './icons';

/**
 * The × in a dialog's top corner (`className` places it elsewhere): every dialog, sheet and drawer can be closed with the pointer as well as
 * Escape. It goes through the dialog's own close, so a dialog that refuses to close (an action running)
 * refuses here too.
 */
export function DialogCloseButton({
  label = 'Close dialog',
  className,
}: {
  label?: string;
  className?: string;
}) {
  return (
    <DialogPrimitive.Close
      aria-label={label}
      className={clsx(getButtonClasses('ghost', 'icon'), 'absolute', className ?? 'top-3 right-3')}
    >
      <CloseIcon />
    </DialogPrimitive.Close>
  );
}
