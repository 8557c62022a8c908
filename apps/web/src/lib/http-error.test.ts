import { clientErrorMessages } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import {
  getStatusText,
  getToastMessage,
  HttpError,
  readErrorType,
  readFieldError,
  readServerMessage,
} from './http-error';

const httpError = (status: number, message: string) =>
  new HttpError({ status, message, errorType: 'some_code' });

describe('readServerMessage (accounts §8)', () => {
  it('reads detail.message first', () => {
    expect(readServerMessage({ detail: { status: 'not_found', message: 'Voice not found', msg: 'x' } })).toBe(
      'Voice not found',
    );
  });

  it('then detail.msg', () => {
    expect(readServerMessage({ detail: { status: 'invalid', msg: 'Field required' } })).toBe(
      'Field required',
    );
  });

  it('then detail.status', () => {
    expect(readServerMessage({ detail: { status: 'quota_exceeded' } })).toBe('quota_exceeded');
  });

  it('skips empty strings', () => {
    expect(readServerMessage({ detail: { message: '  ', msg: '', status: 'conflict' } })).toBe('conflict');
  });

  it('reads a plain string detail and the first issue of a list', () => {
    expect(readServerMessage({ detail: 'Not Found' })).toBe('Not Found');
    expect(
      readServerMessage({ detail: [{ loc: ['body', 'text'], msg: 'Field required', type: 'missing' }] }),
    ).toBe('Field required');
  });

  it('finds nothing in other shapes', () => {
    for (const body of [
      undefined,
      null,
      'text',
      42,
      [],
      {},
      { detail: null },
      { detail: {} },
      { message: 'x' },
    ]) {
      expect(readServerMessage(body)).toBeUndefined();
    }
  });
});

describe('readErrorType', () => {
  it('is detail.status when present, else http_error', () => {
    expect(readErrorType({ detail: { status: 'unauthorized', message: 'x' } })).toBe('unauthorized');
    expect(readErrorType({ detail: 'Not Found' })).toBe('http_error');
    expect(readErrorType(undefined)).toBe('http_error');
  });
});

describe('getStatusText', () => {
  it('prefers the response text, then the standard phrase, then the number', () => {
    expect(getStatusText(404, 'Nope')).toBe('Nope');
    expect(getStatusText(404, '')).toBe('Not Found');
    expect(getStatusText(599, '')).toBe('HTTP 599');
  });
});

describe('getToastMessage (accounts §8)', () => {
  it('shows the server message below 500', () => {
    expect(getToastMessage(httpError(400, 'Text is too long'))).toBe('Text is too long');
    expect(getToastMessage(httpError(499, 'Client closed'))).toBe('Client closed');
  });

  it('shows the generic sentence from 500 up', () => {
    expect(getToastMessage(httpError(500, 'Database exploded'))).toBe(clientErrorMessages.generic);
    expect(getToastMessage(httpError(503, 'Unavailable'))).toBe(clientErrorMessages.generic);
  });

  it('shows the generic sentence when there is no message', () => {
    expect(getToastMessage(httpError(400, ''))).toBe(clientErrorMessages.generic);
  });

  it('shows "Network error" for a network failure (status 0 with that message)', () => {
    const error = new HttpError({
      status: 0,
      message: clientErrorMessages.network,
      errorType: 'network_error',
    });
    expect(getToastMessage(error)).toBe('Network error');
  });

  it('shows the generic sentence for anything that is not an HttpError', () => {
    expect(getToastMessage(new Error('boom'))).toBe('Something went wrong, please try again later.');
    expect(getToastMessage('boom')).toBe(clientErrorMessages.generic);
    expect(getToastMessage(undefined)).toBe(clientErrorMessages.generic);
  });
});

describe('readFieldError (issue 26 item 7)', () => {
  const refused = (loc: unknown[], msg = 'Private address.') =>
    new HttpError({
      status: 422,
      message: msg,
      errorType: 'invalid_request',
      data: {
        detail: { status: 'invalid_request', message: msg, errors: [{ loc, msg, type: 'value_error' }] },
      },
    });

  it('is the message of the body field named, wherever it is nested', () => {
    expect(readFieldError(refused(['body', 'settings', 'webhook_url']), 'webhook_url')).toBe(
      'Private address.',
    );
    expect(readFieldError(refused(['body', 'webhook_url']), 'webhook_url')).toBe('Private address.');
  });

  it('is undefined for another field, a query parameter, another error or no error list', () => {
    expect(readFieldError(refused(['body', 'name']), 'webhook_url')).toBeUndefined();
    expect(readFieldError(refused(['query', 'webhook_url']), 'webhook_url')).toBeUndefined();
    expect(readFieldError(new Error('x'), 'webhook_url')).toBeUndefined();
    expect(
      readFieldError(
        new HttpError({
          status: 409,
          message: 'x',
          errorType: 'conflict',
          data: { detail: { status: 'conflict' } },
        }),
        'webhook_url',
      ),
    ).toBeUndefined();
  });
});
