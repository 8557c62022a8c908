import { clientErrorMessages, getHistoryItemAudioRoute } from '@parla/contracts';
import { getAccessToken } from '../../../lib/access-token';
import { apiFetch } from '../../../lib/api-client';
import {
  getStatusText,
  HttpError,
  networkErrorType,
  readErrorType,
  readServerMessage,
} from '../../../lib/http-error';
import { refreshAccessToken } from '../../../lib/session-refresh';

export interface GetAudioFileOptions {
  /** Send the bearer access token (history audio); public URLs (voice previews) go without it. */
  authenticated?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

async function readErrorBody(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text());
  } catch {
    return undefined;
  }
}

/**
 * Fetches an audio file by URL as a Blob, for sources given by address (a voice's preview_url, an audio
 * path) that apiFetch, which calls route descriptors, cannot take. With `authenticated` it sends the
 * in-memory bearer token and, when the token has just expired (401 `unauthorized`), refreshes it and tries
 * once more, like the API client. Failures are HttpError (accounts §8): the server's message, or
 * "Network error" when nothing answers.
 */
export async function getAudioFile(url: string, options: GetAudioFileOptions = {}): Promise<Blob> {
  const { authenticated = false, signal } = options;
  const send = async (): Promise<Response> => {
    const headers = new Headers({ accept: 'audio/*, */*' });
    const token = authenticated ? getAccessToken() : null;
    if (token) headers.set('authorization', `Bearer ${token}`);
    try {
      return await fetch(url, {
        headers,
        signal,
        credentials: 'same-origin',
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw new HttpError(
        { status: 0, message: clientErrorMessages.network, errorType: networkErrorType },
        { cause: error },
      );
    }
  };

  let response = await send();
  let body: unknown;
  if (response.status === 401 && authenticated && getAccessToken()) {
    body = await readErrorBody(response);
    if (readErrorType(body) === 'unauthorized' && (await refreshAccessToken().catch(() => null))) {
      response = await send();
      body = undefined;
    }
  }
  if (!response.ok) {
    body ??= await readErrorBody(response);
    throw new HttpError({
      status: response.status,
      message: readServerMessage(body) ?? getStatusText(response.status, response.statusText),
      errorType: readErrorType(body),
      data: body,
    });
  }
  try {
    return await response.blob();
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw new HttpError(
      { status: 0, message: clientErrorMessages.network, errorType: networkErrorType },
      { cause: error },
    );
  }
}

/** `GET /v1/history/{id}/audio` through the API client (bearer token, one refresh, §8 errors): the stored audio. */
export async function getHistoryItemAudio(historyItemId: string, signal?: AbortSignal): Promise<Blob> {
  const response = await apiFetch(
    getHistoryItemAudioRoute,
    { params: { history_item_id: historyItemId }, signal },
    'audio/*, */*',
  );
  return response.blob();
}
