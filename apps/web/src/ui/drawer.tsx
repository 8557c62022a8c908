import * as DialogPrimitive from '@radix-ui/react-dialog';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { DialogCloseButton } from './dialog-close-button';

export interface DrawerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Names the drawer for assistive tech; shown only to them, as the content carries its own heading. */
  title: string;
  children?: ReactNode;
  /** The control that opens it: focus returns there on close, and it carries aria-expanded. */
  trigger?: ReactNode;
  className?: string;
}

/**
 * A panel sliding in from the left edge over the page, for navigation on narrow screens: a modal dialog, so
 * focus is trapped inside, and Escape, the overlay and its × close it.
 */
export function Drawer({ open, onOpenChange, title, children, trigger, className }: DrawerProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger>}
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[2px]" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          data-drawer=""
          className={clsx(
            'fixed inset-y-0 left-0 z-50 flex w-72 max-w-[calc(100vw-3rem)] flex-col border-r border-line bg-surface text-fg shadow-xl focus:outline-none motion-safe:animate-drawer-in',
            className,
          )}
        >
          <DialogPrimitive.Title className="sr-only">{title}</DialogPrimitive.Title>
          {children}
          <DialogCloseButton label={`Close ${title.toLowerCase()}`} className="top-2.5 right-3" />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
