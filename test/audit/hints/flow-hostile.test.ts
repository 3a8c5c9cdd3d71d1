import { describe, expect, it } from 'vitest';
import { FlowAnalysis } from '../../../src/audit/hints/flow/flow-analysis.js';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { expectHint, expectNoHint, lines } from './hint-cases.js';

// Files a hostile repository could write to exhaust the data flow or talk it out of a finding.
// Each must index without throwing; where the flow gives up, the sink falls back to the look-back.
describe('the data flow under hostile input', () => {
  const sink = 'res.sendFile(name);';
  const FILE = 'path-traversal/request-input-file-access';

  it('survives nesting deeper than the stack and still reports the sink', () => {
    const depth = 10_000;
    const code = lines(
      `const x = ${'('.repeat(depth)}1${')'.repeat(depth)};`,
      `${'if (a) {'.repeat(3_000)}${'}'.repeat(3_000)}`,
      "app.get('/f', (req, res) => {",
      '  const name = req.query.f;',
      `  ${sink}`,
      '});',
    );
    // Control: parsing this file does overflow the stack; the analysis catches it and gives up.
    const flow = FlowAnalysis.open(code, ['js']);
    expect(() => flow?.file.statementsOf(null)).toThrow(RangeError);
    const hints = indexFile({ path: 'src/deep.js', text: code });
    expect(hints.some((hint) => hint.ruleId === FILE && hint.line === 5)).toBe(true);
  });

  it('stops following mutually recursive helpers', () => {
    const code = lines(
      'function a(v, n) { return n > 0 ? b(v, n - 1) : v; }',
      'function b(v, n) { return n > 0 ? a(v, n - 1) : v; }',
      "app.get('/f', (req, res) => {",
      '  const name = a(req.query.f, 1000);',
      `  ${sink}`,
      '});',
    );
    expectHint('src/loop.js', code, FILE, 5, 'medium');
  });

  it('gives up within its budget on a file of thousands of helpers calling each other', () => {
    const helpers = Array.from(
      { length: 3_000 },
      (_, i) => `function h${i}(v) { const w = h${i + 1}(v); return w; }`,
    );
    const code = lines(
      ...helpers,
      `function h3000(v) { return v; }`,
      "app.get('/f', (req, res) => {",
      '  const name = h0(req.query.f);',
      `  ${sink}`,
      '});',
    );
    const hints = indexFile({ path: 'src/chain.js', text: code });
    expect(hints.some((hint) => hint.ruleId === FILE)).toBe(true);
  });

  it('is not talked out of a finding by a same-file function that borrows a sanitiser name', () => {
    const send = "  res.send('<p>' + escapeHtml(req.query.q) + '</p>');";
    const fake = lines(
      'function escapeHtml(s) { return s; }',
      "app.get('/q', (req, res) => {",
      send,
      '});',
    );
    expectHint('src/fake.js', fake, 'xss/request-html-response', 3, 'low');
    // Control: the same call to an imported escaper is trusted.
    const real = lines(
      "const escapeHtml = require('escape-html');",
      "app.get('/q', (req, res) => {",
      send,
      '});',
    );
    expectNoHint('src/real.js', real, 'xss/request-html-response');
  });

  it('is not talked out of a finding by a constant condition it cannot fold', () => {
    const code = lines(
      "app.get('/f', (req, res) => {",
      '  let name = "safe.txt";',
      '  if (Date.now() > 0) name = req.query.f;',
      `  ${sink}`,
      '});',
    );
    expectHint('src/cond.js', code, FILE, 4, 'medium');
  });
});
