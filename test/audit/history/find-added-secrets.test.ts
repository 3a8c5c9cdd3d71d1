import { describe, expect, it } from 'vitest';
import { findAddedLines } from '../../../src/audit/history/find-added-lines.js';
import { CONTEXT_LINES, findAddedSecrets } from '../../../src/audit/history/find-added-secrets.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { freshAwsKeyPair, freshGithubToken } from '../../support/history-repo.js';

const redact = (text: string) => createRedactor().redact(text);
const linesOf = (text: string) => text.split('\n');

/** The added lines of `after` against `before`, then the secrets on them. */
function secretsAdded(before: string | null, after: string) {
  const lines = linesOf(after);
  const added = findAddedLines(lines, before === null ? [] : [new Set(linesOf(before))]);
  return findAddedSecrets(lines, added, redact);
}

describe('findAddedLines', () => {
  it('a line is added when no previous version holds it anywhere; moved or repeated lines are not', () => {
    const lines = ['a', 'c', 'b', 'new', 'a'];
    expect(findAddedLines(lines, [new Set(['a', 'b', 'c'])])).toEqual([4]);
    // A merge: new only when in none of the parents.
    expect(findAddedLines(lines, [new Set(['a']), new Set(['b', 'new'])])).toEqual([2]);
    expect(findAddedLines(['x', 'y'], [])).toEqual([1, 2]);
  });
});

describe('findAddedSecrets', () => {
  it('finds a key on an added line and not one the previous version already held', () => {
    const old = freshGithubToken();
    const added = freshAwsKeyPair();
    const before = `token = "${old}"\nport = 80\n`;
    const after = `token = "${old}"\nport = 80\naws_access_key_id = ${added.id}\n`;
    expect(secretsAdded(before, after)).toEqual([
      { rule: 'aws-access-key-id', line: 3, isAllowed: false },
    ]);
  });

  it('a private key replaced inside unchanged BEGIN and END lines is found, at its first line', () => {
    const factory = createSecretFactory(Date.now());
    const first = factory.rsaPrivateKey();
    const second = factory.rsaPrivateKey();
    const header = 'server:\n  tls: |\n';
    const before = `${header}${first}\n`;
    const after = `${header}${second}\n`;
    expect(linesOf(before)[2]).toBe(linesOf(after)[2]);
    const found = secretsAdded(before, after);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ line: 3 });
  });

  it('a line far from every added line is blanked, so a secret there is not scanned again', () => {
    const old = freshGithubToken();
    const filler = Array.from({ length: CONTEXT_LINES + 5 }, (_, index) => `line ${index}`);
    const before = [`token = "${old}"`, ...filler].join('\n');
    const after = [`token = "${old}"`, ...filler, `other = "${freshGithubToken()}"`].join('\n');
    expect(secretsAdded(before, after)).toEqual([
      { rule: 'github-token', line: filler.length + 2, isAllowed: false },
    ]);
  });

  it('an oy:allow marker on the added line is carried, for the gate to weigh', () => {
    const after = `key = "${freshGithubToken()}" # oy:allow test fixture\n`;
    expect(secretsAdded(null, after)).toEqual([{ rule: 'github-token', line: 1, isAllowed: true }]);
  });

  it('nothing added, nothing scanned: the redactor is not called', () => {
    let calls = 0;
    const counting = (text: string) => {
      calls++;
      return redact(text);
    };
    expect(findAddedSecrets(['a', 'b'], [], counting)).toEqual([]);
    expect(calls).toBe(0);
  });
});
