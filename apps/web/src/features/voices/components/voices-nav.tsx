import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { SectionNav, SectionPageHeader } from '../../../ui/section-nav';

/**
 * The voice pages (history/voices §2), in the order the sub-navigation shows them. The collections have a
 * path under the voice lab and one under the library (`libraryPath`): from the library, the link stays there.
 */
const voicePages: ReadonlyArray<{ path: string; label: string; libraryPath?: string }> = [
  { path: '/app/voice-lab', label: 'Voice lab' },
  { path: '/app/voice-library', label: 'Voice library' },
  { path: '/app/voice-lab/collections', label: 'Collections', libraryPath: '/app/voice-library/collections' },
  { path: '/app/default-voices', label: 'Default voices' },
  { path: '/app/workspace-voices', label: 'Workspace voices' },
];

/** The links between the voice pages; from the library, the collections link stays there. */
export function VoicesNav() {
  const fromLibrary = useLocation().pathname.startsWith('/app/voice-library');
  const links = voicePages.map((page) => ({
    label: page.label,
    path: (fromLibrary && page.libraryPath) || page.path,
  }));
  return <SectionNav label="Voices" links={links} />;
}

/** The top of a voice page: its title, a line about it, actions on the right and the sub-navigation. */
export function VoicesPageHeader(props: { title: string; description: ReactNode; actions?: ReactNode }) {
  return <SectionPageHeader {...props} nav={<VoicesNav />} />;
}
