import { describe, expect, it } from 'vitest';
import {
  checkWebhookForm,
  deliveryOutcomeOf,
  failedDeliveries,
  lastFailureOf,
  webhookStatusOf,
} from './webhook-rules';

describe('webhookStatusOf', () => {
  it('says disabled before auto-disabled, and active otherwise', () => {
    expect(webhookStatusOf({ is_disabled: false, is_auto_disabled: false }).label).toBe('Active');
    expect(webhookStatusOf({ is_disabled: true, is_auto_disabled: true }).label).toBe('Disabled');
    expect(webhookStatusOf({ is_disabled: false, is_auto_disabled: true })).toEqual({
      label: 'Auto-disabled',
      tone: 'danger',
    });
  });
});

describe('lastFailureOf', () => {
  it('names the status, or that no answer came', () => {
    expect(lastFailureOf({})).toBeUndefined();
    expect(lastFailureOf({ most_recent_failure_timestamp: 1, most_recent_failure_error_code: 503 })).toBe(
      'HTTP 503',
    );
    expect(lastFailureOf({ most_recent_failure_timestamp: 1 })).toBe('no answer');
  });
});

describe('deliveryOutcomeOf', () => {
  it('maps each outcome', () => {
    expect(deliveryOutcomeOf({ status: 'succeeded' }).label).toBe('Delivered');
    expect(deliveryOutcomeOf({ status: 'retrying' }).label).toBe('Will retry');
    expect(deliveryOutcomeOf({ status: 'failed' }).label).toBe('Failed');
  });
});

describe('checkWebhookForm', () => {
  it('wants a name and an http(s) address', () => {
    expect(checkWebhookForm({ name: 'A', url: 'https://example.com/h' })).toEqual({});
    expect(checkWebhookForm({ name: ' ', url: '' })).toEqual({
      name: 'Give the webhook a name.',
      url: 'Enter the address to call.',
    });
    expect(checkWebhookForm({ name: 'A', url: 'example.com' }).url).toMatch(/full address/);
    expect(checkWebhookForm({ name: 'A', url: 'ftp://example.com' }).url).toMatch(/https/);
  });
});

describe('failedDeliveries', () => {
  it('counts in words', () => {
    expect(failedDeliveries(1)).toBe('1 failed delivery');
    expect(failedDeliveries(10)).toBe('10 failed deliveries');
  });
});
