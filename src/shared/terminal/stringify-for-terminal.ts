// JSON.stringify escapes C0 itself; DEL, C1 and the bidirectional controls it leaves raw.
const RAW_AFTER_STRINGIFY = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * JSON for stdout that may be a terminal: what `JSON.stringify` gives, with the control characters
 * it leaves raw written as `\uXXXX` escapes, so the JSON parses to the same value and prints inertly.
 */
export function stringifyForTerminal(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, null, indent) ?? 'null';
  return json.replace(
    RAW_AFTER_STRINGIFY,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
