import { hasTemplateOrMarker, isPlaceholderValue } from './is-placeholder-value.js';

// Shorter values are examples (`-p abc`, `password x`).
const MIN_STATED_SECRET_CHARS = 4;

/**
 * Whether a value that its syntax names a password (a tool's password flag, a `.netrc` `password`,
 * a `.pgpass` line's last field) is one: the place says what it is, so only stand-ins, templates,
 * variables and short examples are refused, not values that read as words.
 */
export function isStatedSecret(value: string): boolean {
  return (
    value.length >= MIN_STATED_SECRET_CHARS &&
    !value.startsWith('-') &&
    !hasTemplateOrMarker(value) &&
    !isPlaceholderValue(value)
  );
}
