import { describe, expect, it } from 'vitest';
import {
  AddressNotAllowedError,
  ipLiteralOf,
  isPublicAddress,
  resolvePublicAddresses,
} from './network-address';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, reserved and their IPv6 and mapped forms', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a00:1',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('takes public addresses', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '93.184.216.34',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe('resolvePublicAddresses', () => {
  it('checks IP literals without a lookup, brackets of IPv6 included', async () => {
    expect(ipLiteralOf('[::1]')).toBe('::1');
    expect(ipLiteralOf('example.com')).toBeUndefined();
    await expect(resolvePublicAddresses('[::1]', false)).rejects.toBeInstanceOf(AddressNotAllowedError);
    await expect(resolvePublicAddresses('127.0.0.1', false)).rejects.toThrow(/private, loopback or reserved/);
    await expect(resolvePublicAddresses('127.0.0.1', true)).resolves.toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
    await expect(resolvePublicAddresses('8.8.8.8', false)).resolves.toEqual([
      { address: '8.8.8.8', family: 4 },
    ]);
  });

  it('resolves names and refuses one that points inside', async () => {
    await expect(resolvePublicAddresses('localhost', false)).rejects.toBeInstanceOf(AddressNotAllowedError);
  });
});
