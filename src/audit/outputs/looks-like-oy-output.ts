/** The first lines of every Markdown report oy writes (render-header.ts): its transparency line. */
const MARKDOWN_MARKER = /^# Audit Issues\r?\n\r?\n> Generated with oy \S+: /;

/**
 * Whether a file looks like a report, ledger or baseline oy wrote, whatever its name. Only the
 * overwrite guard asks this (replacing such a file loses nobody's work); whether a file is left out
 * of the audit is decided by its seal alone (`hasOutputSeal`), since anyone can copy these marks.
 */
export function looksLikeOyOutput(text: string): boolean {
  if (MARKDOWN_MARKER.test(text)) return true;
  const start = text.trimStart();
  if (!start.startsWith('{') || !text.includes('"oy"')) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  return isOyJson(value);
}

function isOyJson(value: unknown): boolean {
  if (!isRecord(value)) return false;
  // A JSON report or a coverage ledger: schemaVersion and tool { name: "oy" }.
  if (value.schemaVersion === 1 && isRecord(value.tool) && value.tool.name === 'oy') return true;
  // A baseline: tool "oy" and its fingerprints.
  if (value.schemaVersion === 1 && value.tool === 'oy' && Array.isArray(value.fingerprints))
    return true;
  // SARIF: the driver is oy and the run carries oy's own properties.
  if (!Array.isArray(value.runs)) return false;
  return value.runs.some(
    (run) =>
      isRecord(run) &&
      isRecord(run.tool) &&
      isRecord(run.tool.driver) &&
      run.tool.driver.name === 'oy' &&
      isRecord(run.properties) &&
      'coverage' in run.properties,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
