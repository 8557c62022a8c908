import { AppError } from '../../platform/errors';
import type { DubbingDeps } from './dubbing.deps';
import { dubFolder } from './dubbing.files';
import { renderToStorage } from './dubbing.pipeline';
import { findDub, findRender, updateRender } from './dubbing.store';

/** Runs a render the editor asked for: stored under the dub's folder, its row complete or failed. */
export async function runRender(
  deps: DubbingDeps,
  payload: { dubId: string; workspaceId: string; renderId: string },
  signal: AbortSignal,
  lastAttempt: boolean,
): Promise<void> {
  const dub = await findDub(deps.db, payload.workspaceId, payload.dubId);
  const render = dub && (await findRender(deps.db, dub.id, payload.renderId));
  if (!dub || render?.status !== 'processing') return;
  const ext = render.type.endsWith('zip') ? 'zip' : render.type;
  const key = `${dubFolder(dub.workspaceId, dub.id)}renders/${render.id}.${ext}`;
  try {
    const made = await renderToStorage(deps, dub, render.language, render.type, key, signal);
    await updateRender(deps.db, render.id, {
      status: 'complete',
      key,
      contentType: made.contentType,
      durationSec: made.durationSec,
    });
  } catch (error) {
    if (signal.aborted || !lastAttempt) {
      if (!(error instanceof AppError)) throw error;
    }
    await updateRender(deps.db, render.id, {
      status: 'failed',
      error: error instanceof AppError ? error.message : 'The render failed on the server.',
    });
    if (!(error instanceof AppError))
      deps.logger.error({ err: error, renderId: render.id }, 'dub render failed');
  }
}

/** The render's job gave up (jobs' `onExhausted`): a render still `processing` is failed, not left spinning. */
export async function abandonRender(
  deps: DubbingDeps,
  payload: { dubId: string; workspaceId: string; renderId: string },
): Promise<void> {
  const dub = await findDub(deps.db, payload.workspaceId, payload.dubId);
  const render = dub && (await findRender(deps.db, dub.id, payload.renderId));
  if (render?.status === 'processing')
    await updateRender(deps.db, render.id, { status: 'failed', error: 'The render failed on the server.' });
}
