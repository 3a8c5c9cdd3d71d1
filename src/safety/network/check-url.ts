import { classifyAddress } from './classify-address.js';

/** The redactor's shape as this module needs it: any hit means the text carries a secret. */
export type RedactText = (text: string) => { redactions: readonly unknown[] };

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:']);

/**
 * Checks a URL before any network use: http or https only, no credentials, no secret in its
 * text, and an IP-literal host must be public. The host is checked as WHATWG URL parsing
 * normalises it, so `2130706433`, `0177.0.0.1`, `0x7f.1` and `127.1` all read as 127.0.0.1.
 * A host name is not resolved here; `guardedFetch` checks every address it resolves to.
 */
export function checkUrl(text: string, redact: RedactText): UrlCheck {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a valid absolute URL' };
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) {
    return { ok: false, reason: `only http and https are allowed, got \`${url.protocol}\`` };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'URLs carrying credentials are refused' };
  }
  if (carriesSecret([text, url.href], redact)) {
    return { ok: false, reason: 'the URL contains a secret; sending it would leak it' };
  }
  const literal = hostLiteral(url.hostname);
  if (literal !== undefined) {
    const verdict = classifyAddress(literal);
    if (!verdict.isPublic) {
      return { ok: false, reason: `address ${literal} is not public (${verdict.range})` };
    }
  }
  return { ok: true, url };
}

/** The host as an IP address when the URL names one (after WHATWG normalisation), else undefined. */
export function hostLiteral(hostname: string): string | undefined {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  // WHATWG parsing rewrites every numeric IPv4 form to dotted decimal, so this test suffices.
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) ? hostname : undefined;
}

function carriesSecret(texts: readonly string[], redact: RedactText): boolean {
  // Percent-encoding must not hide a secret from the redactor.
  const decoded = texts.map(safeDecode);
  return [...texts, ...decoded].some((candidate) => redact(candidate).redactions.length > 0);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
