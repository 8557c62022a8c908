import * as DialogPrimitive from '@radix-ui/react-dialog';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { DialogCloseButton } from './dialog-close-button';

export interface SheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
  /**
   * The control that opens the sheet, rendered as its trigger: focus returns to it on close even where a
   * click does not focus a button (Safari), and it carries aria-expanded and aria-controls.
   */
  trigger?: ReactNode;
}

/**
 * A bottom sheet: a modal dialog that rises from the bottom edge, for phones. Focus is trapped, Escape, the
 * overlay and its × close it, the title names it; it leaves room for the home indicator.
 */
export function Sheet({ open, onOpenChange, title, description, children, className, trigger }: SheetProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger>}
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[2px]" />
        <DialogPrimitive.Content
          data-sheet=""
          className={clsx(
            'fixed inset-x-0 bottom-0 z-50 flex max-h-[calc(100dvh-2rem)] flex-col gap-4 overflow-y-auto rounded-t-2xl border-t border-line bg-surface px-5 pt-3 pb-[max(1.5rem,env(safe-area-inset-bottom))] text-fg shadow-xl focus:outline-none',
            className,
          )}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div aria-hidden="true" className="mx-auto h-1.5 w-10 shrink-0 rounded-full bg-line" />
          <DialogPrimitive.Title className="pr-10 text-lg font-semibold tracking-tight">
            {title}
          </DialogPrimitive.Title>
          {description && (
            <DialogPrimitive.Description className="text-sm text-fg-muted">
              {description}
            </DialogPrimitive.Description>
          )}
          {children}
          <DialogCloseButton className="top-4 right-3" />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
