/** Bedrock's limit on a document name's length. */
const MAX_DOCUMENT_NAME_CHARS = 200;

/**
 * A document name Bedrock accepts: only ASCII letters and digits, single spaces, hyphens, parentheses
 * and square brackets, 1 to 200 characters. `src/app.ts` becomes `src-app-ts`.
 */
export function sanitiseDocumentName(name: string): string {
  const cleaned = name
    .replace(/\s+/g, ' ')
    .replace(/[^A-Za-z0-9 \-()[\]]/g, '-')
    .slice(0, MAX_DOCUMENT_NAME_CHARS)
    .trim();
  return cleaned === '' ? 'document' : cleaned;
}

/** Names made unique within one request (`notes`, `notes (2)`), since the model tells documents apart by name. */
export function createDocumentNamer(): (name: string) => string {
  const used = new Set<string>();
  return (name) => {
    const base = sanitiseDocumentName(name);
    let candidate = base;
    for (let copy = 2; used.has(candidate); copy += 1)
      candidate = `${base.slice(0, MAX_DOCUMENT_NAME_CHARS - 6)} (${copy})`;
    used.add(candidate);
    return candidate;
  };
}
