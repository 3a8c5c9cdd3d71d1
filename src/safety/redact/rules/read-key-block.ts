// Looking further than this for the END line would only find someone else's block (PGP keys with subkeys stay under 16 KiB).
const MAX_KEY_BLOCK_CHARS = 64 * 1024;
const BEGIN_MARKER = /-----BEGIN ([A-Z0-9]+(?: [A-Z0-9]+)* )?PRIVATE KEY( BLOCK)?-----/y;
// A key body shorter than this (base64 characters) is an elided example (`MIIE...`).
const MIN_KEY_BODY_CHARS = 64;
// Real base64 of 64 characters or more uses dozens of symbols; a stand-in (`XXXX...`) a handful.
const MIN_KEY_BODY_SYMBOLS = 16;
// Armour headers of legacy PEM and PGP blocks.
const HEADER_LINE = /^[\s#*/]*(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset):/;
// Quoting, concatenation and comment marks around the lines of a key embedded in code. A `+`
// between base64 characters is base64 (an Ed25519 key's 64-character body often holds one).
const LINE_NOISE = /[bBrRuU]?["'`]|[\s,;()#*\\]|(?<=[\s"'`)])\+|\+(?=[\s"'`(])/g;
const BASE64 = /^[A-Za-z0-9+/=]*$/;

/** A private key block found at a BEGIN marker. */
export interface KeyBlock {
  /** The label between BEGIN and PRIVATE KEY, with its space (`RSA `, `OPENSSH `), or ''. */
  label: string;
  isPgpBlock: boolean;
  /** Index just after the block (its END marker, or its last body line when it has none). */
  end: number;
}

/** Reads the private key block whose BEGIN marker starts at `at`; undefined for stand-ins and prose. */
export function readKeyBlock(text: string, at: number): KeyBlock | undefined {
  // The three key rules share one keyword and ask about the same marker in a row: read it once.
  if (lastRead !== undefined && lastRead.at === at && lastRead.text === text) return lastRead.block;
  const block = readKeyBlockAt(text, at);
  lastRead = { text, at, block };
  return block;
}

let lastRead: { text: string; at: number; block: KeyBlock | undefined } | undefined;

function readKeyBlockAt(text: string, at: number): KeyBlock | undefined {
  BEGIN_MARKER.lastIndex = at;
  const begin = BEGIN_MARKER.exec(text);
  if (begin === null) return undefined;
  const bodyStart = at + begin[0].length;
  // Every search below runs inside this slice, so a marker without an END costs a bounded scan.
  const region = text.slice(bodyStart, bodyStart + MAX_KEY_BLOCK_CHARS);
  const endMarker = findEndMarker(text, bodyStart) - bodyStart;
  const closed =
    endMarker >= 0 && endMarker < region.length ? readClosedBody(region, endMarker) : undefined;
  const { body, end } = closed ?? readOpenBody(region);
  if (body.length < MIN_KEY_BODY_CHARS || new Set(body).size < MIN_KEY_BODY_SYMBOLS)
    return undefined;
  // Documentation marks its sample keys (`EXAMPLEBAAKCAQEA...`); random base64 never spells it.
  if (/example/i.test(body)) return undefined;
  return { label: begin[1] ?? '', isPgpBlock: begin[2] !== undefined, end: bodyStart + end };
}

interface KeyBody {
  /** The base64 of the key, quoting and armour headers removed. */
  body: string;
  /** Where the block ends, relative to the region. */
  end: number;
}

/**
 * The first END marker at or after `from`, or -1. Remembers its last answer, which holds for any
 * later `from` up to that marker, so a file full of BEGIN markers is searched once, not once each.
 */
function findEndMarker(text: string, from: number): number {
  const last = lastEndSearch;
  if (
    last !== undefined &&
    last.text === text &&
    from >= last.from &&
    (last.found === -1 || from <= last.found)
  ) {
    return last.found;
  }
  const found = text.indexOf('-----END', from);
  lastEndSearch = { text, from, found };
  return found;
}

let lastEndSearch: { text: string; from: number; found: number } | undefined;

/** The body up to the END marker at `endMarker`, if everything before it is key material. */
function readClosedBody(region: string, endMarker: number): KeyBody | undefined {
  const close = region.indexOf('-----', endMarker + 8);
  if (close === -1 || close - endMarker > 80) return undefined;
  const body = cleanBody(
    region
      .slice(0, endMarker)
      .replace(/\\[nr]/g, '\n')
      .split('\n'),
  );
  return body === undefined ? undefined : { body, end: close + 5 };
}

/** With no usable END marker: the base64 after BEGIN on its line, then every following body line. */
function readOpenBody(region: string): KeyBody {
  const sameLine = /^[A-Za-z0-9+/=\\]*/.exec(region)?.[0] ?? '';
  const lines = [sameLine.replace(/\\[nr]/g, '')];
  let end = sameLine.length;
  // Anything else after the base64 on the BEGIN line ends the block there.
  const lineBreak = /^\r?\n/.exec(region.slice(end, end + 2));
  if (lineBreak === null) return { body: cleanBody(lines) ?? '', end };
  for (let lineStart = end + lineBreak[0].length - 1; lineStart !== -1;) {
    const lineEnd = region.indexOf('\n', lineStart + 1);
    const line = region.slice(lineStart + 1, lineEnd === -1 ? region.length : lineEnd);
    if (line.trim() === '' || cleanBody([line]) === undefined) break;
    lines.push(line);
    end = lineStart + 1 + line.trimEnd().length;
    lineStart = lineEnd;
  }
  return { body: cleanBody(lines) ?? '', end };
}

/** The base64 of some key lines with their quoting removed, or undefined if a line is not key material. */
function cleanBody(lines: string[]): string | undefined {
  let body = '';
  for (const line of lines) {
    if (HEADER_LINE.test(line)) continue;
    const cleaned = line.replace(LINE_NOISE, '');
    if (!BASE64.test(cleaned)) return undefined;
    body += cleaned;
  }
  return body;
}
