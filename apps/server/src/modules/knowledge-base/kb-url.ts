import type dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { AppError } from '../../platform/errors';
import { AddressNotAllowedError, resolvePublicAddresses } from '../../platform/network-address';

/*
 * `POST /v1/convai/knowledge-base/url` (issue 28 item 3): one web page fetched over http(s), never from a
 * private, loopback, link-local or reserved address (platform/network-address.ts) unless the operator names
 * the host in KB_URL_PRIVATE_HOSTS; checked where the socket connects (so a name cannot resolve to a public
 * address for a check and a private one for the connection), and again at every redirect; within a time and
 * a size limit.
 */

export interface PagePolicy {
  /** Host names (or `*.domain`) that may be at private addresses. */
  privateHosts: readonly string[];
  timeoutMs: number;
  maxBytes: number;
}

export interface FetchedPage {
  bytes: Buffer;
  /** The media type without parameters (text/html, text/plain, application/pdf…). */
  contentType: string;
  /** The address after redirects. */
  url: string;
}

const MAX_REDIRECTS = 5;

const refused = (message: string) => new AppError('url_not_allowed', message);
const failed = (message: string, cause?: unknown) => new AppError('url_fetch_failed', message, { cause });

/** Whether the operator's list names this host (lower case, brackets and a final dot removed). */
export function hostListed(host: string, list: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return list.some((rule) =>
    rule.startsWith('*.') ? name.endsWith(rule.slice(1)) && name.length > rule.length - 1 : name === rule,
  );
}

function privateMessage(host: string, address: string): string {
  return (
    `${host} is at a private, loopback or reserved address (${address}), which this server does not fetch ` +
    "from. If the page is on your own network, ask the server's operator to add the host to KB_URL_PRIVATE_HOSTS."
  );
}

/** The URL parsed and its scheme checked, before any connection. */
export function checkPageUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refused('The URL is not a valid absolute address (e.g. https://example.com/help).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw refused('Only http and https pages can be fetched.');
  if (url.username || url.password) throw refused('URLs with a user name or password are not fetched.');
  url.hash = '';
  return url;
}

/** The socket's DNS lookup, refusing private addresses for hosts not on the list. */
function checkedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    resolvePublicAddresses(hostname, allowPrivate).then(
      (found) => {
        const family = (options as { family?: number }).family;
        const usable = family ? found.filter((a) => a.family === family) : found;
        if ((options as { all?: boolean }).all)
          return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
        const first = usable[0] ?? found[0];
        callback(null, first?.address ?? '', first?.family ?? 4);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}

function get(url: URL, allowPrivate: boolean, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(
      url,
      {
        lookup: checkedLookup(allowPrivate),
        signal,
        headers: {
          'user-agent': 'Parla knowledge base',
          accept: 'text/html,application/xhtml+xml,text/plain,text/markdown,application/pdf;q=0.9,*/*;q=0.1',
        },
      },
      resolve,
    );
    request.on('error', reject);
  });
}

/** Downloads one page the policy allows (redirects followed by hand, each checked), or throws a clear error. */
export async function fetchPage(raw: string, policy: PagePolicy): Promise<FetchedPage> {
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  let url = checkPageUrl(raw);
  const tooLarge = () => failed(`The page is larger than ${Math.floor(policy.maxBytes / 1024 / 1024)} MB.`);
  try {
    for (let hop = 0; ; hop++) {
      const allowPrivate = hostListed(url.hostname, policy.privateHosts);
      // An address written in the URL is not looked up by the socket: check it here (names are checked
      // again by the socket's lookup when it connects).
      await resolvePublicAddresses(url.hostname, allowPrivate);
      const response = await get(url, allowPrivate, timeout);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (hop >= MAX_REDIRECTS) throw failed('The page redirects too many times.');
        url = checkPageUrl(new URL(response.headers.location, url).toString());
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw failed(`The page answered with HTTP ${status}.`);
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxBytes) {
        response.destroy();
        throw tooLarge();
      }
      const parts: Buffer[] = [];
      let size = 0;
      for await (const part of response as AsyncIterable<Buffer>) {
        size += part.length;
        if (size > policy.maxBytes) {
          response.destroy();
          throw tooLarge();
        }
        parts.push(part);
      }
      const contentType = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      return { bytes: Buffer.concat(parts), contentType, url: url.toString() };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof AddressNotAllowedError) throw refused(privateMessage(url.hostname, error.address));
    if (timeout.aborted)
      throw failed(`The page took longer than ${policy.timeoutMs / 1000} s to fetch.`, error);
    if ((error as { code?: string }).code === 'ENOTFOUND')
      throw failed(`The host ${url.hostname} could not be found.`, error);
    throw failed('The page could not be fetched.', error);
  }
}
