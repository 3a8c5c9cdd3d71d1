import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { scanText, type ScanTools } from '../../../src/audit/scan/scan-text.js';
import { createTokenCounter } from '../../../src/audit/tokens/count-tokens.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';

const tools: ScanTools = {
  redact: (text) => createRedactor().redact(text),
  indexFile,
  counter: () => createTokenCounter(),
  needsLineTokens: () => false,
};

// A GitHub token the redactor recognises, drawn fresh so no fixed secret sits in the repository.
function freshToken(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return `ghp_${Array.from(randomBytes(36), (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

function credentialHints(path: string, text: string) {
  const scanned = scanText({ path, text, size: text.length, isTracked: true }, tools);
  return {
    hints: scanned.hints.filter((hint) => hint.ruleId === 'secret/hardcoded-credential'),
    redactions: scanned.redactions,
  };
}

describe('hard-coded credential hints by the kind of file', () => {
  it('ranks a credential in application code high', () => {
    const { hints } = credentialHints('src/deploy.js', `const token = "${freshToken()}";\n`);
    expect(hints.map((hint) => hint.severity)).toEqual(['high']);
  });

  it('ranks the same credential in a test fixture low, still redacted', () => {
    const token = freshToken();
    const { hints, redactions } = credentialHints(
      'test/fixtures/users.js',
      `const token = "${token}";\n`,
    );
    expect(hints.map((hint) => hint.severity)).toEqual(['low']);
    expect(redactions).toHaveLength(1);
  });

  it('ranks a credential-looking value in a translation catalogue as information only', () => {
    const { hints, redactions } = credentialHints(
      'frontend/src/assets/i18n/de.json',
      `{ "LABEL_TOKEN": "${freshToken()}" }\n`,
    );
    expect(hints.map((hint) => hint.severity)).toEqual(['info']);
    expect(redactions).toHaveLength(1);
  });
});
