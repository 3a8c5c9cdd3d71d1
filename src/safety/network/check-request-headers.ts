export type HeaderCheck = { ok: true } | { ok: false; reason: string };

// Credentials, cookies and routing headers the model must never set on an outgoing request.
const REFUSED_HEADERS = new Set([
  'authorization',
  'cookie',
  'proxy-authorization',
  'host',
  'x-forwarded-for',
]);

// Refusing both CR and LF (not only the pair) closes header injection and response splitting.
const LINE_BREAK = /[\r\n]/;

/** Refuses credential and routing headers (any case) and any name or value holding CR or LF. */
export function checkRequestHeaders(headers: Readonly<Record<string, string>>): HeaderCheck {
  for (const [name, value] of Object.entries(headers)) {
    if (LINE_BREAK.test(name) || LINE_BREAK.test(value)) {
      return { ok: false, reason: `header \`${JSON.stringify(name)}\` contains a line break` };
    }
    if (REFUSED_HEADERS.has(name.trim().toLowerCase())) {
      return { ok: false, reason: `header \`${name}\` may not be set by webfetch` };
    }
  }
  return { ok: true };
}
