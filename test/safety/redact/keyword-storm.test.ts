import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { DEFAULT_RULE_SET } from '../../../src/safety/redact/redaction-rules.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { randomChars } from '../../support/vendor-token-samples.js';

// A hostile file made of the redactor's own keywords, overlapping, in random case and glued
// together, so the keyword scan reports a hit at nearly every position and out of order: the
// secrets planted among them, fresh each run, must still be found.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function storm(length: number): string {
  const keywords = DEFAULT_RULE_SET.keywordScanner.keywords;
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const keyword = keywords[Math.floor(Math.random() * keywords.length)] ?? 'token';
    const spelled = [...keyword].map((c) => (Math.random() < 0.5 ? c.toUpperCase() : c)).join('');
    parts.push(spelled);
    size += spelled.length;
  }
  return parts.join('');
}

describe('a keyword storm', () => {
  it('hides every planted secret and leaves the index working', () => {
    const canaries = Array.from({ length: 5 }, () => `ghp_${randomChars(ALNUM, 36)}`);
    const aws = `AKIA${randomChars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
    const text = [
      storm(200_000),
      ...canaries.map((canary) => `const token = "${canary}";${storm(20_000)}`),
      `aws_access_key_id = ${aws}`,
      storm(50_000),
    ].join('\n');
    const redacted = createRedactor().redact(text);
    for (const canary of [...canaries, aws]) expect(redacted.text).not.toContain(canary);
    expect(redacted.redactions.length).toBeGreaterThanOrEqual(canaries.length + 1);
    // The index reads the same storm without throwing; what it hints is not the point here.
    expect(Array.isArray(indexFile({ path: 'storm.js', text: redacted.text }))).toBe(true);
  });
});
