import type { RouteEntry } from '../../lib/app-paths';
import { listSidebarGroups } from '../../lib/nav-groups';

/** The greeting at the top of Home, by the hour of the user's day: "Good morning, Ada". */
export function greetingFor(hour: number, firstName: string | null | undefined): string {
  const part =
    hour >= 5 && hour < 12 ? 'Good morning' : hour >= 12 && hour < 18 ? 'Good afternoon' : 'Good evening';
  const name = firstName?.trim();
  return name ? `${part}, ${name}` : part;
}

/** What each built product does, in a line, for its quick action; a product without one shows its name only. */
export const productDescriptions: Readonly<Record<string, string>> = {
  '/app/speech-synthesis/text-to-speech': 'Turn text into natural speech in any of your voices.',
  '/app/speech-synthesis/text-to-dialogue': 'Write a conversation and give each line its own voice.',
  '/app/speech-synthesis/speech-to-speech': 'Record or upload speech and hear it said in another voice.',
  '/app/speech-to-text': 'Transcribe a recording, with word timings, speakers and subtitles.',
  '/app/voice-lab': 'Clone a voice from a recording, or design one from a description.',
  '/app/voice-library': 'Browse voices others shared and add them to your own.',
  '/app/voice-lab/collections': 'Keep voices together in collections for a project.',
};

/**
 * Home's quick actions: every built product of the sidebar (lib/app-paths.ts's built pages in a product
 * area), Home itself left out, so a product gets its quick action once it is built.
 */
export function listQuickActions(
  table?: readonly RouteEntry[],
): Array<RouteEntry & { description?: string }> {
  return listSidebarGroups(table)
    .filter((group) => group.section !== 'home')
    .flatMap((group) => group.entries)
    .map((entry) => ({ ...entry, description: productDescriptions[entry.path] }));
}
