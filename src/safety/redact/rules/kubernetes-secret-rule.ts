import { Buffer } from 'node:buffer';
import { hasTemplateOrMarker, isPlaceholderValue } from '../is-placeholder-value.js';
import type { ValueRange, WindowRule } from '../redaction-rule.js';

// A Secret manifest keeps `data:` within this many lines of its `kind: Secret`, before or after.
const MANIFEST_LINES = 60;
// `data:` (base64 values) or `stringData:` (plain values) opening the block of secret entries.
const DATA_BLOCK = /^([ \t]*)(data|stringData):[ \t]*(?:#.*)?$/;
// `name: value`, `name: |` or `name: >-` inside the block.
const ENTRY = /^([ \t]*)["']?[\w.-]+["']?:[ \t]*(.*?)[ \t]*$/;
const BLOCK_SCALAR = /^[|>][-+]?$/;
// Base64 shorter than this is a flag or a count, not a credential.
const MIN_DATA_CHARS = 8;

interface Line {
  start: number;
  text: string;
}

function indentOf(text: string): number {
  return /^[ \t]*/.exec(text)?.[0].length ?? 0;
}

/** The value of one entry, without its quotes, if it is one to hide. */
function entryValue(line: Line, raw: string, isBase64: boolean): ValueRange | undefined {
  const value = raw.replace(/^(["'])(.*)\1$/, '$2');
  if (value === '' || hasTemplateOrMarker(value)) return undefined;
  if (isBase64 && (value.length < MIN_DATA_CHARS || !/^[A-Za-z0-9+/]+={0,3}$/.test(value)))
    return undefined;
  // `YmFyCg==` is `bar`: a stand-in, whatever its encoding.
  const plain = isBase64 ? Buffer.from(value, 'base64').toString('latin1').trim() : value;
  if (isPlaceholderValue(plain)) return undefined;
  const start = line.start + line.text.lastIndexOf(value);
  return { start, end: start + value.length };
}

/** Every value in the `data:` and `stringData:` blocks of the window's lines. */
function findDataValues(lines: readonly Line[]): ValueRange[] {
  const found: ValueRange[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const block = DATA_BLOCK.exec(lines[index]?.text ?? '');
    if (block === null) continue;
    const blockIndent = block[1]?.length ?? 0;
    const isBase64 = block[2] === 'data';
    let scalarIndent = -1;
    for (index += 1; index < lines.length; index += 1) {
      const line = lines[index] as Line;
      if (line.text.trim() === '' || line.text.trim().startsWith('#')) continue;
      const indent = indentOf(line.text);
      if (indent <= blockIndent || line.text.startsWith('---')) {
        index -= 1;
        break;
      }
      if (scalarIndent !== -1 && indent > scalarIndent) {
        const start = line.start + indent;
        found.push({ start, end: line.start + line.text.trimEnd().length });
        continue;
      }
      scalarIndent = -1;
      const entry = ENTRY.exec(line.text);
      if (entry === null) continue;
      const raw = entry[2] ?? '';
      if (BLOCK_SCALAR.test(raw)) scalarIndent = indent;
      else {
        const range = entryValue(line, raw, isBase64);
        if (range !== undefined) found.push(range);
      }
    }
  }
  return found;
}

/** The values of a Kubernetes Secret manifest (`kind: Secret` with `data:` or `stringData:`). */
export const KUBERNETES_SECRET_RULE: WindowRule = {
  id: 'kubernetes-secret',
  description: 'A value in the data or stringData of a Kubernetes Secret manifest',
  keywords: ['kind: secret', "kind: 'secret'", 'kind: "secret"', 'kind:secret'],
  scope: 'window',
  contextLines: MANIFEST_LINES,
  findIn(text: string, start: number, end: number): ValueRange[] {
    const lines: Line[] = [];
    let cursor = start;
    for (const lineText of text.slice(start, end).split('\n')) {
      lines.push({ start: cursor, text: lineText.replace(/\r$/, '') });
      cursor += lineText.length + 1;
    }
    // Only the YAML document that holds the `kind: Secret`.
    return findDataValues(documentsWithSecretKind(lines).flat());
  },
};

/** The window's `---`-separated documents that declare `kind: Secret`. */
function documentsWithSecretKind(lines: readonly Line[]): Line[][] {
  const documents: Line[][] = [[]];
  for (const line of lines) {
    if (/^---/.test(line.text)) documents.push([]);
    else documents[documents.length - 1]?.push(line);
  }
  return documents.filter((document) =>
    document.some((line) => /^[ \t]*kind:[ \t]*["']?secret["']?[ \t]*$/i.test(line.text)),
  );
}
