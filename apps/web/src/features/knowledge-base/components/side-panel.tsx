import * as DialogPrimitive from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { DialogCloseButton } from '../../../ui/dialog-close-button';

/**
 * A panel over the right side of the page (the whole width on a phone) for one item's details: a modal
 * dialog, so focus is trapped inside, and Escape, the overlay and its × close it. `ui/drawer` is the
 * navigation's panel from the left, a fixed 18rem wide; a document's text needs more room.
 */
export function SidePanel({
  open,
  onOpenChange,
  title,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Names the panel for assistive technology; the content shows its own heading. */
  title: string;
  children: ReactNode;
}) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[2px]" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-full flex-col border-l border-line bg-surface text-fg shadow-xl focus:outline-none sm:w-[36rem] sm:max-w-[calc(100vw-3rem)]"
        >
          <DialogPrimitive.Title className="sr-only">{title}</DialogPrimitive.Title>
          {children}
          <DialogCloseButton label="Close" className="top-3 right-3" />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
