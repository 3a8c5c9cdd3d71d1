import { homedir, hostname } from 'node:os';
import { describe, expect, test } from 'vitest';
import { renderJson } from '../../../src/audit/report/render-json.js';
import { renderMarkdown } from '../../../src/audit/report/render-markdown.js';
import { renderReport, type ReportFormat } from '../../../src/audit/report/render-report.js';
import { renderSarif } from '../../../src/audit/report/render-sarif.js';
import { revealInvisible } from '../../../src/audit/report/reveal-invisible.js';
import type { AuditReport } from '../../../src/audit/types.js';
import { listNodes, parseMarkdown } from '../../support/parse-markdown.js';
import {
  sampleEmptyReport,
  sampleModelReport,
  sampleOfflineReport,
} from '../../support/sample-report.js';

const FORMATS: ReportFormat[] = ['markdown', 'sarif', 'json'];

// Findings stay: their order is the reduce step's ranking, which the report keeps within a severity.
function reversed(report: AuditReport): AuditReport {
  return {
    ...report,
    unverified: [...report.unverified].reverse(),
    hints: [...report.hints].reverse(),
    secrets: [...report.secrets].reverse(),
    secretFiles: [...report.secretFiles].reverse(),
    coverage: {
      ...report.coverage,
      ledger: [...report.coverage.ledger].reverse(),
      skippedByReason: Object.fromEntries(
        Object.entries(report.coverage.skippedByReason).reverse(),
      ),
      failedByReason: Object.fromEntries(Object.entries(report.coverage.failedByReason).reverse()),
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const each of Object.values(value)) deepFreeze(each);
    Object.freeze(value);
  }
  return value;
}

/** Every string in the report, as the renderers may show it. */
function reportStrings(report: AuditReport): Set<string> {
  const strings = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') strings.add(revealInvisible(value));
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(report);
  for (const place of [...report.findings, ...report.hints, ...report.secrets]) {
    strings.add(`${place.path}:${place.line}`);
  }
  for (const each of report.findings) strings.add(`${each.path}:${each.line}-${each.endLine}`);
  return strings;
}

describe('renderReport', () => {
  test.each([
    ['markdown', renderMarkdown],
    ['sarif', renderSarif],
    ['json', renderJson],
  ] as const)('renders %s with its renderer', (format, render) => {
    const report = sampleModelReport();
    expect(renderReport(report, format)).toBe(render(report));
  });

  test('the three formats differ', () => {
    const outputs = FORMATS.map((format) => renderReport(sampleOfflineReport(), format));
    expect(new Set(outputs).size).toBe(3);
  });
});

describe('every renderer', () => {
  test.each(FORMATS)(
    '%s: the same input gives the same output, and the input is not changed',
    (format) => {
      const report = deepFreeze(sampleModelReport());
      const first = renderReport(report, format);
      expect(renderReport(report, format)).toBe(first);
      expect(renderReport(structuredClone(report), format)).toBe(first);
      expect(report).toEqual(sampleModelReport());
    },
  );

  test.each(['markdown', 'sarif'] as const)(
    '%s: the order of the input lists other than findings does not change the output',
    (format) => {
      for (const report of [sampleOfflineReport(), sampleModelReport()]) {
        expect(renderReport(reversed(report), format)).toBe(renderReport(report, format));
      }
    },
  );

  test.each(FORMATS)(
    '%s: nothing from the machine it runs on (directory, home, host, today)',
    (format) => {
      const today = new Date().toISOString().slice(0, 10);
      for (const report of [sampleOfflineReport(), sampleModelReport(), sampleEmptyReport()]) {
        const output = renderReport(report, format);
        for (const local of [process.cwd(), homedir(), hostname(), today])
          expect(output).not.toContain(local);
      }
    },
  );

  test('markdown: every code span and code block holds report text, or a fixed name of oy', async () => {
    const fixed = new Set([
      '--model',
      'OY_MODEL',
      'oy doctor',
      '--fail-on',
      '--manifest',
      'secret-file',
      '--scope shipping',
      '--scope all',
      '--riskiest',
      'skipped(budget)',
      '--offline',
      '<ref>..HEAD',
      'git fetch --unshallow',
      'fetch-depth: 0',
      // The coverage section's account of what the repository kept from the review.
      'vendor/',
      'dist/',
      '*.min.*',
      '--max-file-bytes',
      '.oyignore',
      '.oy/config.json',
      '--min-coverage',
      '--exclude',
    ]);
    for (const report of [sampleOfflineReport(), sampleModelReport(), sampleEmptyReport()]) {
      const strings = reportStrings(report);
      const root = await parseMarkdown(renderMarkdown(report));
      const code = listNodes(root).filter(
        (node) => node.type === 'inlineCode' || node.type === 'code',
      );
      expect(code.length).toBeGreaterThan(3);
      for (const node of code) {
        const isFromReport = [...strings].some((text) => text.includes(node.value!));
        expect(isFromReport || fixed.has(node.value!), node.value).toBe(true);
      }
    }
  });

  test('sarif: every location and fingerprint input comes from the report', () => {
    const report = sampleOfflineReport();
    const paths = new Set(
      [...report.hints, ...report.secrets, ...report.secretFiles].map((each) => each.path),
    );
    const log = JSON.parse(renderSarif(report)) as {
      runs: {
        results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
      }[];
    };
    for (const result of log.runs[0]!.results) {
      expect(paths).toContain(
        decodeURIComponent(result.locations[0]!.physicalLocation.artifactLocation.uri),
      );
    }
  });
});
