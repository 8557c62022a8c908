import { clsx } from 'clsx';

/** A hue from a name, the same every time, so avatars of different names differ at a glance. */
export function hueFromName(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 360;
  return hash;
}

/** A round initial on a gradient coloured from the name (voices have no pictures). Decorative. */
export function InitialAvatar({ name, className }: { name: string; className?: string }) {
  const hue = hueFromName(name);
  return (
    <span
      aria-hidden="true"
      className={clsx(
        'flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-white',
        className,
      )}
      style={{ background: `linear-gradient(135deg, hsl(${hue} 65% 50%), hsl(${(hue + 50) % 360} 70% 40%))` }}
    >
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
