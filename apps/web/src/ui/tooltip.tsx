import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import type { ReactNode } from 'react';

export interface TooltipProps {
  /** What the tooltip says. */
  content: ReactNode;
  /** The element it explains. A disabled control gets no pointer or focus events: wrap it (`wrapDisabled`). */
  children: ReactNode;
  /**
   * Wraps the children in a focusable span, so the tooltip also explains a disabled control (which takes
   * neither hover nor focus itself) to mouse and keyboard users.
   */
  wrapDisabled?: boolean;
  /** Where it opens: above the element unless there is no room (the default), or beside it. */
  side?: 'top' | 'right' | 'bottom' | 'left';
}

/**
 * A tooltip on hover and focus, after the app's open delay (accounts §9: 400 ms, set on the provider).
 * Needs the TooltipProvider that the app's providers hold.
 */
export function Tooltip({ content, children, wrapDisabled = false, side }: TooltipProps) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>
        {wrapDisabled ? (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the disabled control inside cannot take focus, and its reason must be reachable by keyboard.
          <span tabIndex={0} className="block rounded-md focus-visible:outline-2 focus-visible:outline-ring">
            {children}
          </span>
        ) : (
          children
        )}
      </TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          side={side}
          sideOffset={6}
          className="z-50 max-w-xs rounded-md bg-fg px-2.5 py-1.5 text-xs text-bg shadow-md"
        >
          {content}
          <TooltipPrimitive.Arrow className="fill-fg" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
