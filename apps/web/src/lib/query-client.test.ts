import { describe, expect, it } from 'vitest';
import { HttpError } from './http-error';
import { createQueryClient, shouldRetryRequest } from './query-client';

const error = (status: number, errorType = 'x') => new HttpError({ status, message: 'm', errorType });

describe('shouldRetryRequest', () => {
  it('never retries a 4xx', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429, 499]) {
      expect(shouldRetryRequest(0, error(status))).toBe(false);
    }
  });

  it('never retries a body it could not read', () => {
    expect(shouldRetryRequest(0, error(0, 'unknown'))).toBe(false);
  });

  it('retries network failures, 5xx and other errors twice', () => {
    for (const failure of [error(0, 'network_error'), error(500), error(503), new Error('x')]) {
      expect(shouldRetryRequest(0, failure)).toBe(true);
      expect(shouldRetryRequest(1, failure)).toBe(true);
      expect(shouldRetryRequest(2, failure)).toBe(false);
    }
  });

  it('is the default of the app query client', () => {
    expect(createQueryClient().getDefaultOptions().queries?.retry).toBe(shouldRetryRequest);
  });
});
