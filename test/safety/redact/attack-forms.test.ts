import { afterAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import {
  freshPassword,
  KEY_NAMED_FORMS,
  secretFamilies,
  splitTokenForm,
  TOKEN_FORMS,
  vendorContextFamilies,
} from '../../support/attack-forms.js';

// Every family of secret, drawn afresh on each run, in every form a repository writes it: nothing
// of the value (or of any piece of a split value) may survive redaction.
let cases = 0;
afterAll(() => console.log(`attack forms: ${cases} cases`));

/** The pieces of `pieces` that survive redacting `text`; every piece must be in the text at first. */
function survivors(text: string, pieces: readonly string[]): string[] {
  for (const piece of pieces) expect(text, 'the form plants what it names').toContain(piece);
  const redacted = createRedactor().redact(text).text;
  return pieces.filter((piece) => redacted.includes(piece));
}

describe('secrets in every form a repository writes them', () => {
  it.each(TOKEN_FORMS.map((form) => [form.name, form] as const))(
    'self-identifying tokens of every family: %s',
    (_name, form) => {
      const leaks: string[] = [];
      for (const family of secretFamilies()) {
        const value = family.make();
        const { text, pieces = [value] } = form.write(value);
        cases += 1;
        if (survivors(text, pieces).length > 0)
          leaks.push(`${family.rule}: ${JSON.stringify(text)}`);
        // Named for what it is, whatever is around it.
        const rules = createRedactor()
          .redact(text)
          .redactions.map((redaction) => redaction.rule);
        if (!rules.includes(family.rule)) leaks.push(`${family.rule} named ${rules.join()}`);
      }
      expect(leaks).toEqual([]);
    },
  );

  it('self-identifying tokens of every family, split across a string concatenation', () => {
    const leaks: string[] = [];
    for (const family of secretFamilies()) {
      const { text, pieces } = splitTokenForm(family.make());
      cases += 1;
      const left = survivors(text, pieces);
      if (left.length > 0)
        leaks.push(`${family.rule}: ${JSON.stringify(text)} kept ${left.join(', ')}`);
    }
    expect(leaks).toEqual([]);
  });

  it('control: the same halves not joined by a concatenation keep the second half in clear', () => {
    const family = secretFamilies()[1];
    if (family === undefined) throw new Error('no family');
    const { text, pieces } = splitTokenForm(family.make());
    cases += 1;
    expect(survivors(text.replace('" + "', '", "'), pieces)).toEqual([pieces[1]]);
  });

  it.each(KEY_NAMED_FORMS.map((form) => [form.name, form] as const))(
    'a password named by its key: %s',
    (_name, form) => {
      const leaks: string[] = [];
      for (let round = 0; round < 20; round += 1) {
        const value = freshPassword();
        const { text, pieces = [value] } = form.write(value);
        cases += 1;
        if (survivors(text, pieces).length > 0) leaks.push(JSON.stringify(text));
      }
      expect(leaks).toEqual([]);
    },
  );

  it("vendor-named values: the vendor's word in the key, in JSON, YAML, .env and XML", () => {
    const leaks: string[] = [];
    for (const family of vendorContextFamilies()) {
      const value = family.make();
      const upper = family.word.toUpperCase().replace(/[^A-Z0-9]/g, '_');
      for (const text of [
        `{"${family.word}": "${value}"}\n`,
        `${family.word}:\n  api_token: ${value}\n`,
        `${upper}_TOKEN=${value}\r\n`,
        `<${family.word}Key>${value}</${family.word}Key>\n`,
      ]) {
        cases += 1;
        if (survivors(text, [value]).length > 0)
          leaks.push(`${family.rule}: ${JSON.stringify(text)}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});
