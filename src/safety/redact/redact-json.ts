/**
 * A JSON value with every string redacted, object keys too, before it is serialised, so JSON escapes
 * never hide a secret from the redactor. Recursive: callers bound the depth first
 * (`valueNestsDeeper`), as every value from a model or a server is.
 */
export function redactJson(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact));
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[redact(key)] = redactJson(item, redact);
    return result;
  }
  return value;
}
