import type { ComponentType, SVGProps } from 'react';
import {
  BarChartIcon,
  DubbingIcon,
  FlaskIcon,
  FolderIcon,
  GridIcon,
  HomeIcon,
  KeyIcon,
  LibraryIcon,
  MicrophoneIcon,
  SpeechBubblesIcon,
  SpeechToTextIcon,
  TextToSpeechIcon,
  WebhookIcon,
} from './icons';

export type NavIcon = ComponentType<SVGProps<SVGSVGElement>>;

/** Each built area's icon; an area built later shows the generic one until it is given its own. */
const navIcons: Readonly<Record<string, NavIcon>> = {
  '/app/home': HomeIcon,
  '/app/speech-synthesis/text-to-speech': TextToSpeechIcon,
  '/app/speech-synthesis/text-to-dialogue': SpeechBubblesIcon,
  '/app/speech-synthesis/speech-to-speech': MicrophoneIcon,
  '/app/speech-to-text': SpeechToTextIcon,
  '/app/dubbing': DubbingIcon,
  '/app/voice-lab': FlaskIcon,
  '/app/voice-library': LibraryIcon,
  '/app/voice-lab/collections': FolderIcon,
  '/app/developers/api-keys': KeyIcon,
  '/app/developers/webhooks': WebhookIcon,
  '/app/developers/usage': BarChartIcon,
};

/** The icon of a navigation entry (the sidebar, Home's quick actions). */
export function navIconOf(path: string): NavIcon {
  return navIcons[path] ?? GridIcon;
}
