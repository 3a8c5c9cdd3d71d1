import { createRedactor } from '../safety/redact/redactor.js';

/** Enough of a provider's own explanation to act on, short enough for one error line. */
export const MAX_PROVIDER_MESSAGE_CHARS = 300;
// A shorter "key" (a test placeholder, an empty default) would mangle ordinary words if replaced.
const MIN_SECRET_CHARS = 8;

/**
 * A provider's error text made safe to show: one line, the caller's own credentials replaced,
 * anything else secret-shaped redacted (an endpoint may echo a key or a signed URL), then shortened.
 * Returns '' when there is nothing to quote.
 */
export function quoteProviderMessage(text: unknown, secrets: readonly string[] = []): string {
  if (typeof text !== 'string') return '';
  let quoted = text.replace(/\s+/g, ' ').trim();
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_CHARS) quoted = quoted.replaceAll(secret, '[redacted]');
  }
  quoted = createRedactor().redact(quoted).text;
  return quoted.length > MAX_PROVIDER_MESSAGE_CHARS
    ? `${quoted.slice(0, MAX_PROVIDER_MESSAGE_CHARS)}…`
    : quoted;
}
