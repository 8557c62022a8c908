import dns from 'node:dns';
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../platform/errors';
import { isPublicAddress } from '../../platform/network-address';

/*
 * `cloud_storage_url` / `source_url` (issue 19 item 1): a file fetched only from hosts the operator allows
 * (STT_URL_ALLOWED_HOSTS), never from a private, loopback or link-local address unless allowed
 * (STT_URL_ALLOW_PRIVATE), with a size and a time limit. The address is checked where the connection is
 * made (the socket's own DNS lookup), so a name that resolves to a public address for a check and to a
 * private one for the connection gets nowhere; redirects are followed by hand, each hop checked the same.
 */

export interface SourceUrlPolicy {
  /** Host names, `*.domain` for its subdomains, `*` for any public host; empty refuses every URL. */
  allowedHosts: readonly string[];
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
}

const MAX_REDIRECTS = 5;

/**
 * Whether an IP address is private, loopback, link-local, reserved or multicast (an IPv4-mapped IPv6 by its
 * IPv4): the platform's one list of what the server never calls on someone's behalf (network-address.ts).
 */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** Whether the operator's list allows this host name (lower case, no port). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return allowed.some((rule) => {
    if (rule === '*') return true;
    if (rule.startsWith('*.')) return name.endsWith(rule.slice(1)) && name.length > rule.length - 1;
    return name === rule;
  });
}

const refused = (message: string) => new AppError('url_not_allowed', message);
const failed = (message: string, cause?: unknown) => new AppError('url_fetch_failed', message, { cause });

/** Checks a URL against the policy before any connection: its scheme and its host. */
export function checkSourceUrl(raw: string, policy: SourceUrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('The URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw refused('Only http and https URLs can be fetched.');
  if (url.username || url.password) throw refused('URLs with a user name or password are not fetched.');
  if (policy.allowedHosts.length === 0)
    throw refused('This server does not fetch files from URLs: upload the file instead.');
  if (!hostAllowed(url.hostname, policy.allowedHosts))
    throw refused(`This server does not fetch files from ${url.hostname}.`);
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(literal) && !policy.allowPrivate && isPrivateAddress(literal))
    throw refused('The URL points to a private address, which this server does not fetch from.');
  return url;
}

/** A DNS lookup for the socket that refuses private addresses (checked at connection time, every hop). */
function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as dns.LookupAddress[];
      const usable = allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) {
        const blocked = Object.assign(new Error('private address'), { code: 'EPRIVATE' });
        return callback(blocked, '', 4);
      }
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
      const first = usable[0] as dns.LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** One GET without following redirects: the response, or an error. */
function get(url: URL, policy: SourceUrlPolicy, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(
      url,
      {
        lookup: guardedLookup(policy.allowPrivate),
        signal,
        headers: { 'user-agent': 'Parla speech-to-text', accept: '*/*' },
      },
      resolve,
    );
    request.on('error', reject);
  });
}

/**
 * Downloads a URL the policy allows to `file`: redirects followed by hand (at most 5, each checked), at
 * most `maxBytes`, within `timeoutMs` (and `signal`). Throws `url_not_allowed` or `url_fetch_failed`
 * with a message for the caller; nothing is left half-written that the caller does not remove.
 */
export async function downloadSourceUrl(
  raw: string,
  file: string,
  policy: SourceUrlPolicy,
  signal?: AbortSignal,
): Promise<{ bytes: number; url: string }> {
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let url = checkSourceUrl(raw, policy);
  try {
    for (let hop = 0; ; hop++) {
      const response = await get(url, policy, both);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (hop >= MAX_REDIRECTS) throw failed('The URL redirects too many times.');
        url = checkSourceUrl(new URL(response.headers.location, url).toString(), policy);
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw failed(`The URL answered with HTTP ${status}.`);
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxBytes) {
        response.destroy();
        throw failed(`The file at the URL is larger than ${Math.floor(policy.maxBytes / 1024 / 1024)} MB.`);
      }
      let bytes = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          if (bytes > policy.maxBytes)
            done(
              failed(`The file at the URL is larger than ${Math.floor(policy.maxBytes / 1024 / 1024)} MB.`),
            );
          else done(null, chunk);
        },
      });
      await pipeline(response, counter, createWriteStream(file, { mode: 0o600 }), { signal: both });
      return { bytes, url: url.toString() };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if ((error as { code?: string }).code === 'EPRIVATE')
      throw refused('The URL points to a private address, which this server does not fetch from.');
    if (timeout.aborted) throw failed('The file at the URL took too long to download.', error);
    if (signal?.aborted) throw error;
    throw failed('The file at the URL could not be downloaded.', error);
  }
}
