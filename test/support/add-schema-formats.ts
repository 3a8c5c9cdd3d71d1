/** The JSON Schema string formats the SARIF and report schemas use, checked for real. */
interface FormatRegistry {
  addFormat(name: string, validate: (value: string) => boolean): unknown;
}

// RFC 3339 date-time, as JSON Schema defines `date-time`.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
// RFC 3986: a scheme, then no spaces, quotes, angle brackets or other characters that must be encoded.
const URI_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/**
 * Adds `date-time`, `uri` and `uri-reference` to an Ajv instance. ajv-formats is not a dependency,
 * and turning format checks off would let a malformed URI through, so these are written out here.
 */
export function addSchemaFormats(ajv: FormatRegistry): void {
  ajv.addFormat('date-time', (value) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)));
  ajv.addFormat(
    'uri',
    (value) => URI_SCHEME.test(value) && URI_CHARACTERS.test(value) && canParseUrl(value),
  );
  ajv.addFormat('uri-reference', (value) => URI_CHARACTERS.test(value));
}

function canParseUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
