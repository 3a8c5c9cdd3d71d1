import { afterAll, describe, expect, it } from 'vitest';
import { REDACTION_RULES } from '../../../src/safety/redact/redaction-rules.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import {
  GITLEAKS_FORMATS,
  GITLEAKS_NOT_CREDENTIALS,
  GITLEAKS_RULE_IDS,
} from '../../support/gitleaks-formats.js';

// Every credential format of gitleaks' rule set, drawn afresh on each run: redacted whole under the
// typed placeholder of the rule that names it; a near miss of each is left alone.
let cases = 0;
afterAll(() => {
  const ids = new Set(GITLEAKS_FORMATS.map((format) => format.gitleaks)).size;
  console.log(
    `gitleaks formats: ${ids} credential rule ids, ${GITLEAKS_FORMATS.length} formats, ${cases} cases`,
  );
});

describe("gitleaks' credential formats", () => {
  it('has a format entry for every gitleaks rule id that is a credential, and only for those', () => {
    const covered = new Set(GITLEAKS_FORMATS.map((format) => format.gitleaks));
    const credentials = GITLEAKS_RULE_IDS.filter((id) => !(id in GITLEAKS_NOT_CREDENTIALS));
    expect([...covered].sort()).toEqual([...credentials].sort());
    for (const id of Object.keys(GITLEAKS_NOT_CREDENTIALS)) expect(GITLEAKS_RULE_IDS).toContain(id);
    cases += 1;
  });

  it('names each format by a built-in rule that has a pre-filter keyword', () => {
    const rules = new Map(REDACTION_RULES.map((rule) => [rule.id, rule]));
    for (const format of GITLEAKS_FORMATS) {
      expect(rules.get(format.rule)?.keywords.length, format.rule).toBeGreaterThan(0);
    }
    cases += 1;
  });

  it.each(GITLEAKS_FORMATS.map((format) => [`${format.gitleaks} -> ${format.rule}`, format]))(
    '%s: a fresh value is redacted under its typed placeholder',
    (_name, format) => {
      const { value, texts } = format.make();
      for (const text of texts) {
        cases += 1;
        const result = createRedactor().redact(text);
        expect(result.text, text).not.toContain(value);
        expect(result.text, text).toContain(`[REDACTED:${format.rule}:1]`);
        expect(result.text.split('\n')).toHaveLength(text.split('\n').length);
      }
    },
  );

  it.each(GITLEAKS_FORMATS.map((format) => [`${format.gitleaks} -> ${format.rule}`, format]))(
    '%s: a near miss is left alone',
    (_name, format) => {
      cases += 1;
      const text = format.nearMiss();
      expect(createRedactor().redact(text).redactions, text).toEqual([]);
    },
  );
});
