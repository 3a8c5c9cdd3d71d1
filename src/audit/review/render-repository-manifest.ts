import { formatPathLabel } from '../chunk/format-part-header.js';

/**
 * Characters of the manifest in a map prompt: about 1,000-1,300 tokens, so the prompt stays within
 * 1.15x the chunk it carries (P6) while still naming several hundred files.
 */
export const MANIFEST_MAX_CHARS = 4_000;

export interface ManifestFile {
  path: string;
  lineCount: number;
}

/**
 * The repository at a glance, one line per directory in first-seen order:
 * `src/audit/: types.ts 240, run-audit.ts 88`. Files past `maxChars` are counted in a last line,
 * and the whole never exceeds `maxChars`.
 */
export function renderRepositoryManifest(
  files: readonly ManifestFile[],
  maxChars: number = MANIFEST_MAX_CHARS,
): string {
  const groups = groupByDirectory(files);
  const lines: string[] = [];
  let length = 0;
  let shown = 0;
  for (const [directory, entries] of groups) {
    let line = `${directory}:`;
    let separator = ' ';
    for (const entry of entries) {
      const addition = `${separator}${entry}`;
      const remaining = files.length - shown - 1;
      const reserve = remaining > 0 ? omittedLine(remaining).length + 1 : 0;
      const newline = lines.length > 0 ? 1 : 0;
      if (length + newline + line.length + addition.length + reserve > maxChars) {
        return finish(lines, line, separator, files.length - shown, maxChars);
      }
      line += addition;
      separator = ', ';
      shown++;
    }
    length += (lines.length > 0 ? 1 : 0) + line.length;
    lines.push(line);
  }
  return lines.join('\n');
}

function groupByDirectory(files: readonly ManifestFile[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const slash = file.path.lastIndexOf('/');
    const directory = slash === -1 ? '.' : formatPathLabel(file.path.slice(0, slash + 1));
    const entry = `${formatPathLabel(file.path.slice(slash + 1))} ${file.lineCount}`;
    const group = groups.get(directory);
    if (group) group.push(entry);
    else groups.set(directory, [entry]);
  }
  return groups;
}

function finish(
  lines: string[],
  openLine: string,
  separator: string,
  omitted: number,
  maxChars: number,
): string {
  // A directory line with no file on it says nothing; the omitted count covers its files.
  if (separator !== ' ') lines.push(openLine);
  const text = [...lines, omittedLine(omitted)].join('\n');
  return text.length <= maxChars ? text : text.slice(0, maxChars);
}

function omittedLine(count: number): string {
  return `(+${count} more file${count === 1 ? '' : 's'} not listed)`;
}
