/** The JSON values found in a model answer, in order of preference, or why none parsed. */
export type ExtractedJson = { values: unknown[] } | { error: string };

// Longest stretch of the answer quoted back in an error message, so a repair prompt stays small.
const QUOTE_MAX_CHARS = 60;

/**
 * The JSON values in a model answer: fenced blocks (```json or ```), the whole text, then the first
 * balanced `{...}` and `[...]` amid prose. Trailing commas before `}` or `]` are forgiven.
 */
export function extractJson(text: string): ExtractedJson {
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'the answer was empty.' };
  const values: unknown[] = [];
  let firstError: string | undefined;
  for (const candidate of listCandidates(trimmed)) {
    const parsed = parseLeniently(candidate);
    // Only text that starts like JSON has a syntax error worth sending back.
    if (!('error' in parsed)) values.push(parsed.value);
    else if (/^[{["]/.test(candidate)) firstError ??= parsed.error;
  }
  if (values.length > 0) return { values };
  return { error: firstError ?? `no JSON object found; the answer starts with ${quote(trimmed)}.` };
}

function listCandidates(text: string): string[] {
  const candidates: string[] = [];
  for (const match of text.matchAll(/```[\w-]*[^\S\n]*\n([\s\S]*?)```/g)) {
    if (match[1] !== undefined) candidates.push(match[1].trim());
  }
  candidates.push(text);
  // A `[` after the first `{` is inside the object (or prose after it), never the answer itself.
  const objectStart = text.indexOf('{');
  const arrayStart = text.indexOf('[');
  const starts = [objectStart];
  if (arrayStart !== -1 && (objectStart === -1 || arrayStart < objectStart))
    starts.push(arrayStart);
  for (const start of starts.filter((index) => index !== -1)) {
    const end = closingIndex(text, start);
    candidates.push(text.slice(start, end === -1 ? text.length : end + 1));
  }
  return [...new Set(candidates)];
}

/** The index of the bracket that closes the one at `start`, or -1 when the text ends first. */
function closingIndex(text: string, start: number): number {
  let depth = 0;
  let isInString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (isInString) {
      if (char === '\\') index++;
      else if (char === '"') isInString = false;
    } else if (char === '"') isInString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}

function parseLeniently(candidate: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(candidate) as unknown };
  } catch (error) {
    try {
      return { value: JSON.parse(withoutTrailingCommas(candidate)) as unknown };
    } catch {
      return { error: describeSyntaxError(candidate, error) };
    }
  }
}

function describeSyntaxError(candidate: string, error: unknown): string {
  if (closingIndex(candidate, 0) === -1)
    return 'the JSON ends before its closing bracket, so the answer was probably cut off; send fewer or shorter findings.';
  const message = error instanceof Error ? error.message : String(error);
  return `the JSON does not parse: ${message.slice(0, 200)}.`;
}

// Drops each comma that only whitespace separates from a closing bracket, outside strings.
function withoutTrailingCommas(candidate: string): string {
  let result = '';
  let isInString = false;
  for (let index = 0; index < candidate.length; index++) {
    const char = candidate[index] ?? '';
    if (isInString) {
      if (char === '\\') {
        result += char + (candidate[index + 1] ?? '');
        index++;
        continue;
      }
      if (char === '"') isInString = false;
    } else if (char === '"') isInString = true;
    else if (char === ',' && closesAfterWhitespace(candidate, index + 1)) continue;
    result += char;
  }
  return result;
}

function closesAfterWhitespace(text: string, from: number): boolean {
  const closing = /\s*[}\]]/y;
  closing.lastIndex = from;
  return closing.test(text);
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return JSON.stringify(
    line.length > QUOTE_MAX_CHARS ? `${line.slice(0, QUOTE_MAX_CHARS)}...` : line,
  );
}
