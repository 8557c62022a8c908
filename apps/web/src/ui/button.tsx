import { Slot } from '@radix-ui/react-slot';
import { clsx } from 'clsx';
import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'icon';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Renders the child element (a link) with the button's look instead of a <button>. */
  asChild?: boolean;
}

const variantClasses: Record<ButtonVariant, string> = {
  primary: 'bg-fg text-bg hover:bg-fg/85 shadow-sm',
  secondary: 'border border-line bg-surface text-fg hover:bg-subtle shadow-xs',
  ghost: 'text-fg-muted hover:bg-subtle hover:text-fg',
  danger: 'bg-danger text-white hover:bg-danger/85 shadow-sm',
};

const sizeClasses: Record<ButtonSize, string> = {
  sm: 'h-8 gap-1.5 rounded-md px-3 text-sm',
  md: 'h-10 gap-2 rounded-lg px-4 text-sm',
  icon: 'size-9 rounded-lg text-lg',
};

/** The class list of a button look, for elements that cannot use <Button>. */
export function getButtonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md'): string {
  return clsx(
    'inline-flex shrink-0 cursor-pointer items-center justify-center font-medium whitespace-nowrap transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
    'disabled:pointer-events-none disabled:opacity-50',
    // aria-disabled keeps the focus and the tooltip; the handler ignores the click.
    'aria-disabled:cursor-not-allowed aria-disabled:opacity-50',
    variantClasses[variant],
    sizeClasses[size],
  );
}

/** The button primitive: four looks, three sizes, a visible focus ring, and `asChild` for links. */
export function Button({ variant, size, asChild = false, className, type, ...props }: ButtonProps) {
  if (asChild) return <Slot className={clsx(getButtonClasses(variant, size), className)} {...props} />;
  return (
    <button type={type ?? 'button'} className={clsx(getButtonClasses(variant, size), className)} {...props} />
  );
}
