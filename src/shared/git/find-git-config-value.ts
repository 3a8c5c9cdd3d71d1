const SECTION_LINE = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/;
const ENTRY_LINE = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/;

/**
 * The last value of `section.key` (no subsection) in git config text, as git reads it: names
 * are case-insensitive, values may be quoted, escaped and continued with a trailing backslash.
 * `[include]` files are not followed.
 */
export function findGitConfigValue(text: string, section: string, key: string): string | undefined {
  return readValues(text, section, key).at(-1);
}

/** Every value of `section.key` in order, for multi-valued settings such as `safe.directory`. */
export function findGitConfigValues(text: string, section: string, key: string): string[] {
  return readValues(text, section, key).filter((value) => value !== undefined);
}

function readValues(text: string, section: string, key: string): (string | undefined)[] {
  const wantedSection = section.toLowerCase();
  const wantedKey = key.toLowerCase();
  let current = '';
  const found: (string | undefined)[] = [];
  const lines = joinContinuedLines(text.split(/\r?\n/));
  for (const fullLine of lines) {
    let line = fullLine;
    const header = SECTION_LINE.exec(line);
    if (header) {
      const name = (header[1] ?? '').toLowerCase();
      current = header[2] === undefined ? name : `${name}\0${header[2]}`;
      // git allows an entry on the same line as its section header.
      line = line.slice(header[0].length);
    }
    if (current !== wantedSection) continue;
    const entry = ENTRY_LINE.exec(line);
    if (entry?.[1]?.toLowerCase() !== wantedKey) continue;
    // A key with no "=" is boolean true, which no path setting means.
    found.push(entry[2] === undefined ? undefined : parseValue(entry[2]));
  }
  return found;
}

function joinContinuedLines(lines: string[]): string[] {
  const joined: string[] = [];
  let pending = '';
  for (const line of lines) {
    const trailing = /\\+$/.exec(line)?.[0].length ?? 0;
    // An odd number of trailing backslashes continues the line.
    if (trailing % 2 === 1) pending += line.slice(0, -1);
    else {
      joined.push(pending + line);
      pending = '';
    }
  }
  if (pending !== '') joined.push(pending);
  return joined;
}

function parseValue(raw: string): string {
  let value = '';
  let isQuoted = false;
  let pendingSpace = '';
  for (let index = 0; index < raw.length; index++) {
    const char = raw[index] ?? '';
    if (char === '"') {
      isQuoted = !isQuoted;
      continue;
    }
    if (!isQuoted && (char === '#' || char === ';')) break;
    if (char === '\\') {
      const next = raw[index + 1] ?? '';
      index++;
      value += pendingSpace + ({ n: '\n', t: '\t', b: '\b' }[next] ?? next);
      pendingSpace = '';
      continue;
    }
    // Unquoted whitespace is kept between words and trimmed at both ends.
    if (!isQuoted && (char === ' ' || char === '\t')) {
      if (value !== '') pendingSpace += char;
      continue;
    }
    value += pendingSpace + char;
    pendingSpace = '';
  }
  return value;
}
