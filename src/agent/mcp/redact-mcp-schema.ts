import { MAX_ARGUMENT_DEPTH, valueNestsDeeper } from '../../providers/bound-tool-arguments.js';

/** A schema larger than this is replaced by a bare object: it would crowd every request. */
const MAX_SCHEMA_CHARS = 20_000;
/** What a schema too large, too deep or unreadable after redaction becomes: any object. */
const BARE_SCHEMA: Readonly<Record<string, unknown>> = {
  type: 'object',
  additionalProperties: true,
};
/** Schema keywords whose strings are values of their property: read beside its name, as `name=value`. */
const VALUE_KEYWORDS = new Set(['default', 'const', 'enum', 'examples', 'example']);
/** Put in place of a value whose property's name the redactor took along with it. */
const REDACTED_VALUE = '[REDACTED]';

/**
 * An MCP tool's input schema as the model may see it. Every string is redacted (keys, defaults, enums,
 * examples, descriptions, titles, at any depth); a value (`default`, `const`, `enum`, `examples`) is
 * also read beside its property's name (`password=…`), as the redactor reads an assignment; then the
 * JSON text is redacted whole, so a rule that needs a key beside its value sees both. A schema that
 * no longer parses, nests deeper than tool arguments may, or is too large becomes a bare object.
 */
export function redactMcpSchema(
  schema: Record<string, unknown>,
  redact: (text: string) => string,
): Record<string, unknown> {
  if (schema.type !== 'object' || valueNestsDeeper(schema, MAX_ARGUMENT_DEPTH))
    return { ...BARE_SCHEMA };
  const text = JSON.stringify(redactNode(schema, redact, undefined, false));
  if (text.length > MAX_SCHEMA_CHARS) return { ...BARE_SCHEMA };
  try {
    const parsed: unknown = JSON.parse(redact(text));
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // A placeholder that broke the JSON: the bare object below.
  }
  return { ...BARE_SCHEMA };
}

/** `property` is the name of the property whose schema this is; `isValue` whether we are under a value keyword. */
function redactNode(
  node: unknown,
  redact: (text: string) => string,
  property: string | undefined,
  isValue: boolean,
): unknown {
  if (typeof node === 'string')
    return isValue && property !== undefined ? redactBeside(node, property, redact) : redact(node);
  if (Array.isArray(node)) return node.map((item) => redactNode(item, redact, property, isValue));
  if (node === null || typeof node !== 'object') return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (
      key === 'properties' &&
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value)
    ) {
      const properties: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value))
        properties[redact(name)] = redactNode(sub, redact, name, false);
      result.properties = properties;
    } else {
      result[redact(key)] = redactNode(value, redact, property, isValue || VALUE_KEYWORDS.has(key));
    }
  }
  return result;
}

function redactBeside(value: string, property: string, redact: (text: string) => string): string {
  const alone = redact(value);
  const assignment = `${property}=${alone}`;
  const checked = redact(assignment);
  if (checked === assignment) return alone;
  return checked.startsWith(`${property}=`) ? checked.slice(property.length + 1) : REDACTED_VALUE;
}
