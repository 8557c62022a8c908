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

/** A bell, for the notifications button. */
export function BellIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </IconFrame>
  );
}

/** Three lines, for the header's menu button on phones. */
export function MenuIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M4 6h16" />
      <path d="M4 12h16" />
      <path d="M4 18h16" />
    </IconFrame>
  );
}

/** Two overlapping sheets, for copy buttons. */
export function CopyIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <rect width="14" height="14" x="8" y="8" rx="2" />
      <path d="M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2" />
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

/** Three joined dots, for sharing. */
export function ShareIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.59 13.51 6.83 3.98M15.41 6.51l-6.82 3.98" />
    </IconFrame>
  );
}

/** A bin, for deleting. */
export function TrashIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M3 6h18M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2M10 11v6M14 11v6" />
    </IconFrame>
  );
}

/** An arrow pointing up, for moving something up a list. */
export function ArrowUpIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M12 19V5M5 12l7-7 7 7" />
    </IconFrame>
  );
}

/** An arrow pointing down, for moving something down a list. */
export function ArrowDownIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M12 5v14M19 12l-7 7-7-7" />
    </IconFrame>
  );
}

/** Two speech bubbles, for conversations. */
export function SpeechBubblesIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M14 9a2 2 0 0 1-2 2H6l-4 4V4a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2z" />
      <path d="M18 9h2a2 2 0 0 1 2 2v11l-4-4h-6a2 2 0 0 1-2-2v-1" />
    </IconFrame>
  );
}

/** A video camera over a screen on a stand, for dubbing (video in, picture kept). */
export function DubbingIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <rect x="2" y="4" width="14" height="12" rx="2" />
      <path d="m16 9 5-3v8l-5-3" />
      <path d="M5 20h8M9 16v4" />
    </IconFrame>
  );
}

/** A speaker sending out sound, for a mute button while the sound plays. */
export function SpeakerIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M11 5 6 9H2v6h4l5 4V5Z" />
      <path d="M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13" />
    </IconFrame>
  );
}

/** A speaker with a cross, for a mute button while the sound is off. */
export function SpeakerOffIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M11 5 6 9H2v6h4l5 4V5Z" />
      <path d="m16 9 6 6M22 9l-6 6" />
    </IconFrame>
  );
}

/** A house, for the app's home. */
export function HomeIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M3 10.5 12 3l9 7.5" />
      <path d="M5 9.5V20a1 1 0 0 0 1 1h4v-6h4v6h4a1 1 0 0 0 1-1V9.5" />
    </IconFrame>
  );
}

/** Lines of text beside a sound wave, for text to speech. */
export function TextToSpeechIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M4 6h10M4 11h7M4 16h5" />
      <path d="M16 10v4M19 8v8M22 11v2" />
    </IconFrame>
  );
}

/** A sound wave becoming lines of text, for speech to text (the text-to-speech icon mirrored). */
export function SpeechToTextIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M2 11v2M5 8v8M8 10v4" />
      <path d="M12 6h9M14 11h7M16 16h5" />
    </IconFrame>
  );
}

/** A microphone, for speech to speech and recording. */
export function MicrophoneIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <rect x="9" y="2" width="6" height="12" rx="3" />
      <path d="M5 10a7 7 0 0 0 14 0M12 17v5M8 22h8" />
    </IconFrame>
  );
}

/** A flask, for the voice lab. */
export function FlaskIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M9 3h6M10 3v6.5L4.6 18.4A1.7 1.7 0 0 0 6.1 21h11.8a1.7 1.7 0 0 0 1.5-2.6L14 9.5V3" />
      <path d="M7.5 15h9" />
    </IconFrame>
  );
}

/** Books on a shelf, for the voice library. */
export function LibraryIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M4 4v16M8 4v16M12 6l4.5 14M20 20 15.5 4" />
    </IconFrame>
  );
}

/** A folder, for collections. */
export function FolderIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
    </IconFrame>
  );
}

/** A square with four squares, for a page without an icon of its own. */
export function GridIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <rect x="3" y="3" width="7" height="7" rx="1.5" />
      <rect x="14" y="3" width="7" height="7" rx="1.5" />
      <rect x="3" y="14" width="7" height="7" rx="1.5" />
      <rect x="14" y="14" width="7" height="7" rx="1.5" />
    </IconFrame>
  );
}

/** Three connected nodes, for webhooks (events sent from here to another server). */
export function WebhookIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <circle cx="12" cy="6" r="3" />
      <circle cx="6" cy="18" r="3" />
      <circle cx="18" cy="18" r="3" />
      <path d="M10.6 8.7 7.4 15.3M13.4 8.7l3.2 6.6M9 18h6" />
    </IconFrame>
  );
}

/** A key, for API keys. */
export function KeyIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <circle cx="7.5" cy="15.5" r="4.5" />
      <path d="m10.7 12.3 9.3-9.3M16 7l3 3M18 5l2 2" />
    </IconFrame>
  );
}

/** Three bars rising, for the usage chart. */
export function BarChartIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="M4 20h16" />
      <path d="M7 16v-4M12 16V8M17 16V5" />
    </IconFrame>
  );
}

/** A panel with its left column, for collapsing and expanding the sidebar. */
export function SidebarIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M9 4v16" />
    </IconFrame>
  );
}

/** A coin stack, for credits. */
export function CoinsIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <ellipse cx="9" cy="7" rx="6" ry="3" />
      <path d="M3 7v5c0 1.66 2.69 3 6 3s6-1.34 6-3V7" />
      <path d="M15 10.2c3.4.3 6 1.5 6 2.8 0 1.66-2.69 3-6 3-1.2 0-2.3-.17-3.2-.47M21 13v5c0 1.66-2.69 3-6 3s-6-1.34-6-3v-3" />
    </IconFrame>
  );
}

/** An arrow pointing up and down, for a menu that opens. */
export function ChevronsUpDownIcon(props: IconProps) {
  return (
    <IconFrame {...props}>
      <path d="m7 15 5 5 5-5M7 9l5-5 5 5" />
    </IconFrame>
  );
}

/** The frame of the brand logos: the icons' frame, filled with the current colour instead of stroked. */
function LogoFrame(props: IconProps) {
  return <IconFrame fill="currentColor" stroke="none" {...props} />;
}

/** The Facebook logo, for sharing there. */
export function FacebookLogoIcon(props: IconProps) {
  return (
    <LogoFrame {...props}>
      <path d="M24 12.07C24 5.4 18.63 0 12 0S0 5.4 0 12.07C0 18.1 4.39 23.1 10.13 24v-8.44H7.08v-3.49h3.05V9.41c0-3.02 1.8-4.7 4.54-4.7 1.31 0 2.68.24 2.68.24v2.97h-1.51c-1.49 0-1.96.93-1.96 1.89v2.26h3.33l-.53 3.49h-2.8V24C19.61 23.1 24 18.1 24 12.07Z" />
    </LogoFrame>
  );
}

/** The X logo, for sharing there. */
export function XLogoIcon(props: IconProps) {
  return (
    <LogoFrame {...props}>
      <path d="M18.24 2.25h3.31l-7.23 8.26 8.5 11.24h-6.66l-5.21-6.82-5.97 6.82H1.67l7.73-8.84L1.25 2.25h6.83l4.71 6.23 5.45-6.23Zm-1.16 17.52h1.83L7.08 4.13H5.12l11.96 15.64Z" />
    </LogoFrame>
  );
}

/** The WhatsApp logo, for sharing there. */
export function WhatsAppLogoIcon(props: IconProps) {
  return (
    <LogoFrame {...props}>
      <path d="M17.47 14.38c-.3-.15-1.76-.87-2.03-.97-.27-.1-.47-.15-.67.15-.2.3-.77.97-.94 1.17-.17.2-.35.22-.64.07-.3-.15-1.26-.46-2.39-1.47-.88-.79-1.48-1.76-1.65-2.06-.17-.3-.02-.46.13-.6.13-.14.3-.35.45-.52.15-.17.2-.3.3-.5.1-.2.05-.37-.03-.52-.07-.15-.67-1.61-.92-2.21-.24-.58-.49-.5-.67-.51h-.57c-.2 0-.52.07-.79.37-.27.3-1.04 1.02-1.04 2.48s1.07 2.88 1.22 3.08c.15.2 2.1 3.2 5.08 4.49.71.31 1.26.49 1.69.63.71.23 1.36.2 1.87.12.57-.09 1.76-.72 2.01-1.41.25-.7.25-1.29.17-1.41-.07-.12-.27-.2-.57-.35ZM12.05 21.5h-.01a9.87 9.87 0 0 1-5.03-1.38l-.36-.21-3.74.98 1-3.65-.24-.37a9.86 9.86 0 0 1-1.51-5.26c0-5.45 4.44-9.88 9.89-9.88 2.64 0 5.12 1.03 6.99 2.9a9.83 9.83 0 0 1 2.89 6.99c0 5.45-4.44 9.88-9.88 9.88Zm8.41-18.3A11.82 11.82 0 0 0 12.05 0C5.5 0 .16 5.34.16 11.89c0 2.1.55 4.14 1.59 5.95L.06 24l6.3-1.65a11.88 11.88 0 0 0 5.68 1.45h.01c6.55 0 11.89-5.34 11.89-11.89 0-3.18-1.24-6.16-3.48-8.41Z" />
    </LogoFrame>
  );
}
