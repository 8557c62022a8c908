import type { RouteSection } from '../lib/app-paths';

/**
 * What a route tells the shell: the document title of its page, and its product area (the frame). Its own
 * file so the shell reads it without importing the router that imports the shell.
 */
export interface RouteHandle {
  title: string;
  /** Absent on "Page not found", whose frame follows the path. */
  section?: RouteSection;
}
