import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { expectRedacted, expectUntouched } from '../../support/expect-redaction.js';
import { drawVendorTokenSamples } from '../../support/vendor-token-samples.js';

const samples = drawVendorTokenSamples();
console.log(`vendor token rules: ${samples.length * 4 + 1} cases`);

describe('vendor token rules', () => {
  it.each(samples.map((sample) => [sample.rule, sample] as const))(
    '%s: a fresh value is redacted alone, at a line end and in an assignment',
    (rule, { value }) => {
      expectRedacted(value, value, rule);
      expectRedacted(`${value}\n`, value, rule);
      expectRedacted(`export TOKEN_VALUE="${value}"`, value, rule);
    },
  );

  it.each(samples.map((sample) => [sample.rule, sample] as const))(
    '%s: a near miss (prefix with too short a body) in prose is left alone',
    (_rule, { nearMiss }) => {
      expectUntouched(`see ${nearMiss} in the docs`);
    },
  );

  it('the control: removing the rules would leave the value in clear', () => {
    const [first] = samples;
    if (first === undefined) throw new Error('no samples');
    const result = createRedactor({ rules: [] }).redact(first.value);
    expect(result.text).toContain(first.value);
  });
});
