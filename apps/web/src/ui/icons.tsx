import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;

/** Shared frame of the line icons: 24-unit grid, current colour, hidden from assistive tech. */
function IconFrame({ children, ...props }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

/** A sun, shown by the theme toggle in the dark theme. */
export function SunIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.93 4.93l1.41 1.41M17.66 17.66l1.41 1.41M2 12h2M20 12h2M6.34 17.66l-1.41 1.41M19.07 4.93l-1.41 1.41" />
    </IconFrame>
  );
}

/** A crescent moon, shown by the theme toggle in the light theme. */
export function MoonIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M20.985 12.486a9 9 0 1 1-9.473-9.472c.405-.022.617.46.402.803a6 6 0 0 0 8.268 8.268c.344-.215.825-.004.803.401" />
    </IconFrame>
  );
}

/** A cross, for close buttons. */
export function CloseIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M18 6 6 18M6 6l12 12" />
    </IconFrame>
  );
}

/** A tick in a circle, for success. */
export function CheckCircleIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <circle cx="12" cy="12" r="10" />
      <path d="m9 12 2 2 4-4" />
    </IconFrame>
  );
}

/** An exclamation mark in a circle, for errors. */
export function AlertCircleIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <circle cx="12" cy="12" r="10" />
      <path d="M12 8v4M12 16h.01" />
    </IconFrame>
  );
}

/** An "i" in a circle, for plain notices. */
export function InfoIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <circle cx="12" cy="12" r="10" />
      <path d="M12 16v-4M12 8h.01" />
    </IconFrame>
  );
}

/** An arrow pointing up and right, for links that leave the app. */
export function ArrowUpRightIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M7 17 17 7M7 7h10v10" />
    </IconFrame>
  );
}

/** A circular arrow, for retry. */
export function RefreshIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M21 12a9 9 0 1 1-2.64-6.36L21 8" />
      <path d="M21 3v5h-5" />
    </IconFrame>
  );
}

/** A filled triangle, for play buttons. */
export function PlayIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path
        d="M6 4.5a1.5 1.5 0 0 1 2.26-1.3l11.24 7.5a1.5 1.5 0 0 1 0 2.6L8.26 20.8A1.5 1.5 0 0 1 6 19.5z"
        fill="currentColor"
      />
    </IconFrame>
  );
}

/** Two filled bars, for pause buttons. */
export function PauseIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <rect x="6" y="4" width="4" height="16" rx="1" fill="currentColor" />
      <rect x="14" y="4" width="4" height="16" rx="1" fill="currentColor" />
    </IconFrame>
  );
}

/** An arrow turning back with "10" inside, for skipping back ten seconds. */
export function SkipBackTenIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M3 12a9 9 0 1 0 9-9 9.75 9.75 0 0 0-6.74 2.74L3 8" />
      <path d="M3 3v5h5" />
      <text
        x="12"
        y="15.5"
        textAnchor="middle"
        fontSize="8"
        fontWeight="700"
        fill="currentColor"
        stroke="none"
      >
        10
      </text>
    </IconFrame>
  );
}

/** An arrow turning forward with "10" inside, for skipping forward ten seconds. */
export function SkipForwardTenIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M21 12a9 9 0 1 1-9-9c2.52 0 4.93 1 6.74 2.74L21 8" />
      <path d="M21 3v5h-5" />
      <text
        x="12"
        y="15.5"
        textAnchor="middle"
        fontSize="8"
        fontWeight="700"
        fill="currentColor"
        stroke="none"
      >
        10
      </text>
    </IconFrame>
  );
}

/** A tray with an arrow into it, for downloads. */
export function DownloadIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4" />
      <path d="m7 10 5 5 5-5M12 15V3" />
    </IconFrame>
  );
}

/** An open ring; spin it (`animate-spin`) while something loads. */
export function SpinnerIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M21 12a9 9 0 1 1-6.22-8.56" />
    </IconFrame>
  );
}

/** A tick, for the chosen entry of a menu. */
export function CheckIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M20 6 9 17l-5-5" />
    </IconFrame>
  );
}

/** A thumb up, for positive feedback. */
export function ThumbUpIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M7 10v11M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z" />
    </IconFrame>
  );
}

/** A thumb down, for negative feedback. */
export function ThumbDownIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M17 14V3M9 18.12 10 14H4.17a2 2 0 0 1-1.92-2.56l2.33-8A2 2 0 0 1 6.5 2H20a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-2.76a2 2 0 0 0-1.79 1.11L12 22a3.13 3.13 0 0 1-3-3.88Z" />
    </IconFrame>
  );
}
