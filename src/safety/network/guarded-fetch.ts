import { checkRequestHeaders } from './check-request-headers.js';
import { checkUrl, type RedactText } from './check-url.js';
import { requestOnce, type SingleResponse } from './request-once.js';
import {
  lookupAll,
  resolvePublicAddress,
  type AllowAddressForTests,
  type LookupAll,
} from './resolve-public-address.js';

/** Bodies past this are cut off: enough for a documentation page, small for the context. */
export const MAX_FETCH_BYTES = 2 * 1024 * 1024;
/** Each redirect is checked like the first URL; more than this is a loop or a trap. */
export const MAX_REDIRECTS = 10;
/** The default deadline for the whole exchange, redirects and DNS included (the tool's default). */
export const FETCH_TIMEOUT_MS = 60_000;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface GuardedFetchOptions {
  method?: 'GET' | 'HEAD';
  headers?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** The redactor; a hit in any URL (the first or a redirect) refuses it. */
  redact: RedactText;
  lookup?: LookupAll;
  signal?: AbortSignal;
  /** TEST ONLY, see `AllowAddressForTests`: never set from config, flags or tool arguments. */
  allowAddress?: AllowAddressForTests;
}

export type FetchResult =
  | {
      ok: true;
      status: number;
      headers: Record<string, string>;
      body: string;
      finalUrl: string;
      truncated: boolean;
    }
  | { ok: false; kind: FetchFailureKind; reason: string; url: string };

/** `refused`: the guard said no before connecting; the rest happened on the way. */
export type FetchFailureKind = 'refused' | 'failed' | 'timeout' | 'cancelled';

/**
 * Fetches a URL reaching only the public internet (SECURITY.md): every URL and
 * every resolved address of every hop is checked, the socket connects to the checked address,
 * redirects are followed by hand. Never throws for network errors; they come back as results.
 */
export async function guardedFetch(
  rawUrl: string,
  options: GuardedFetchOptions,
): Promise<FetchResult> {
  const method = options.method ?? 'GET';
  const headers = options.headers ?? {};
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const deadline = AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS);
  const signal =
    options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline]);

  const headerCheck = checkRequestHeaders(headers);
  if (!headerCheck.ok) return refused(headerCheck.reason, rawUrl);

  let target = rawUrl;
  for (let redirects = 0; ; redirects += 1) {
    const urlCheck = checkUrl(target, options.redact);
    if (!urlCheck.ok) return refused(urlCheck.reason, target);
    const { url } = urlCheck;
    let response: SingleResponse;
    try {
      const addressCheck = await untilAborted(
        resolvePublicAddress(url.hostname, options.lookup ?? lookupAll, options.allowAddress),
        signal,
      );
      if (!addressCheck.ok) return refused(addressCheck.reason, url.href);
      response = await requestOnce({
        url,
        method,
        headers,
        checked: addressCheck.checked,
        maxBytes: options.maxBytes ?? MAX_FETCH_BYTES,
        signal,
        wantsBody: (status) => !isRedirect(status),
      });
    } catch (error) {
      return failure(error, url.href, deadline, options.signal);
    }
    const location = response.headers['location'];
    if (!isRedirect(response.status) || location === undefined) {
      return {
        ok: true,
        status: response.status,
        headers: response.headers,
        body: response.body.toString('utf8'),
        finalUrl: url.href,
        truncated: response.truncated,
      };
    }
    if (redirects >= maxRedirects) {
      return refused(`more than ${maxRedirects} redirects`, url.href);
    }
    target = resolveLocation(location, url);
  }
}

function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    // Left unparsed so checkUrl refuses it with its own reason.
    return location;
  }
}

function refused(reason: string, url: string): FetchResult {
  return { ok: false, kind: 'refused', reason, url };
}

function failure(
  error: unknown,
  url: string,
  deadline: AbortSignal,
  caller: AbortSignal | undefined,
): FetchResult {
  if (deadline.aborted) return { ok: false, kind: 'timeout', reason: 'the request timed out', url };
  if (caller?.aborted === true) {
    return { ok: false, kind: 'cancelled', reason: 'the request was cancelled', url };
  }
  const reason = error instanceof Error ? error.message : String(error);
  return { ok: false, kind: 'failed', reason, url };
}

/** Rejects when the signal aborts, so a slow DNS answer counts against the deadline. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
