/** Deepest nesting of objects and arrays taken in a tool call's arguments; real tools need four. */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * What a call's arguments become when they nest deeper: a short text (as for JSON that does not
 * parse), which the loop answers with a tool error. Nothing recursive (parse, validation,
 * redaction, serialising the session) ever sees the deep value, so it cannot overflow the stack.
 */
export const TOO_DEEP_ARGUMENTS = `[tool arguments nested deeper than ${MAX_ARGUMENT_DEPTH} levels were dropped]`;

/**
 * Parses a tool call's JSON arguments, checking their depth on the text first (iteratively).
 * Blank text is `{}`; text that does not parse is passed on as itself, as the providers promise.
 */
export function parseToolArguments(json: string): unknown {
  if (json.trim() === '') return {};
  if (jsonTextNestsDeeper(json, MAX_ARGUMENT_DEPTH)) return TOO_DEEP_ARGUMENTS;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/** Arguments an SDK already parsed: the same depth check, on the value, without recursion. */
export function boundToolArguments(value: unknown): unknown {
  return valueNestsDeeper(value, MAX_ARGUMENT_DEPTH) ? TOO_DEEP_ARGUMENTS : value;
}

/** Whether JSON text opens more than `limit` arrays or objects at once (strings skipped). */
export function jsonTextNestsDeeper(json: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < json.length; index += 1) {
    const char = json.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index += 1; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
  return false;
}

/** Whether a value nests arrays or objects more than `limit` deep, walked with an explicit stack. */
export function valueNestsDeeper(value: unknown, limit: number): boolean {
  const stack: Array<[item: unknown, depth: number]> = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
