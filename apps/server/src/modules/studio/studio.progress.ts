import { PassThrough, type Readable } from 'node:stream';
import type { StudioProgressEvent } from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { notFound } from '../../platform/errors';
import type { StudioDeps } from './studio.deps';
import { findProject, listChapters } from './studio.store';

/*
 * A conversion's live progress for the web app (issue 30 item 2: "the web app shows it live over SSE"):
 * server-sent events, one `progress` event whenever the project's state or a chapter's progress changes,
 * read from the rows the job writes every `pollMs`. The stream ends when no conversion runs (at once when
 * none was running), when the project is deleted, or when the client goes away.
 */

const POLL_MS = 400;
/** A comment line now and then keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

async function progressOf(deps: StudioDeps, workspaceId: string, projectId: string) {
  const project = await findProject(deps.db, workspaceId, projectId);
  if (!project) return undefined;
  const chapters = await listChapters(deps.db, project.id);
  const event: StudioProgressEvent = {
    project_id: project.id,
    state: project.state,
    chapters: chapters.map((c) => ({
      chapter_id: c.id,
      state: c.state,
      conversion_progress: c.conversionProgress,
      last_conversion_error: c.lastConversionError,
    })),
    latest_snapshot_id: project.latestSnapshotId,
  };
  return event;
}

export async function progressStream(
  deps: StudioDeps,
  caller: RequestCaller,
  projectId: string,
  closed: AbortSignal,
  pollMs = POLL_MS,
): Promise<Readable> {
  const first = await progressOf(deps, caller.workspaceId, projectId);
  if (!first) throw notFound('The project');
  const out = new PassThrough();
  const send = (event: StudioProgressEvent) =>
    out.write(`event: progress\ndata: ${JSON.stringify(event)}\n\n`);
  void (async () => {
    let last = JSON.stringify(first);
    send(first);
    let quietSince = Date.now();
    let event: StudioProgressEvent | undefined = first;
    while (event && event.state === 'converting' && !closed.aborted) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      event = await progressOf(deps, caller.workspaceId, projectId);
      if (!event) break;
      const text = JSON.stringify(event);
      if (text !== last) {
        send(event);
        last = text;
        quietSince = Date.now();
      } else if (Date.now() - quietSince > HEARTBEAT_MS) {
        out.write(': still converting\n\n');
        quietSince = Date.now();
      }
    }
    out.end();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}
