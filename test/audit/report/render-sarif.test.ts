import { readFileSync } from 'node:fs';
import path from 'node:path';
import AjvDraft04Module from 'ajv-draft-04';
import { describe, expect, test } from 'vitest';
import { renderSarif } from '../../../src/audit/report/render-sarif.js';
import { SECURITY_SEVERITY_SCORES } from '../../../src/audit/report/sarif/security-severity.js';
import type { SarifLog, SarifResult } from '../../../src/audit/report/sarif/sarif-log.js';
import type { AuditReport } from '../../../src/audit/types.js';
import { addSchemaFormats } from '../../support/add-schema-formats.js';
import {
  finding,
  hint,
  sampleEmptyReport,
  sampleModelReport,
  sampleOfflineReport,
} from '../../support/sample-report.js';

const SNAPSHOTS = path.join(import.meta.dirname, '../../../snapshots/audit/report/sarif');
const SARIF_SCHEMA = JSON.parse(
  readFileSync(
    path.join(import.meta.dirname, '../../fixtures/sarif/sarif-schema-2.1.0.json'),
    'utf8',
  ),
) as object;

// A CommonJS module: under NodeNext its default import is `module.exports`, whose `default` is the class.
const AjvDraft04 = AjvDraft04Module.default;
const ajv = new AjvDraft04({ allErrors: true });
addSchemaFormats(ajv);
const validateSarif = ajv.compile(SARIF_SCHEMA);

function render(report: AuditReport): SarifLog {
  return JSON.parse(renderSarif(report)) as SarifLog;
}

function resultsOf(report: AuditReport): SarifResult[] {
  return render(report).runs[0].results;
}

function fingerprintOf(result: SarifResult): string {
  return result.partialFingerprints['oyFingerprint/v1']!;
}

function hostileReport(): AuditReport {
  const report = sampleModelReport();
  report.findings.push(
    finding({
      title: 'Odd path <script>',
      path: 'dir with space/a#b%c?.ts',
      line: 0,
      endLine: 0,
      category: '  ###  ',
      evidence: 'x\u202Ey',
    }),
    finding({ title: 'Unicode path', path: 'src/ünïcødé/файл.ts', line: 7, category: 'i18n' }),
  );
  report.coverage.ledger.push({ path: 'bad\nname.ts', status: 'failed', reason: 'read' });
  return report;
}

describe('renderSarif snapshots', () => {
  test.each([
    ['offline', sampleOfflineReport()],
    ['model', sampleModelReport()],
    ['empty', sampleEmptyReport()],
  ] as const)('%s report', async (name, report) => {
    await expect(renderSarif(report)).toMatchFileSnapshot(
      path.join(SNAPSHOTS, `${name}.sarif.json`),
    );
  });
});

describe('renderSarif against the SARIF 2.1.0 schema', () => {
  test.each([
    ['offline', sampleOfflineReport()],
    ['model', sampleModelReport()],
    ['empty offline', sampleEmptyReport('offline')],
    ['empty model', sampleEmptyReport('model')],
    ['hostile', hostileReport()],
  ] as const)('the %s report validates', (_name, report) => {
    const log = render(report);
    const isValid = validateSarif(log);
    expect(validateSarif.errors ?? []).toEqual([]);
    expect(isValid).toBe(true);
  });

  test('the validator rejects a broken log, so the checks above can fail', () => {
    const log = render(sampleModelReport()) as unknown as {
      runs: { results: Record<string, unknown>[] }[];
    };
    log.runs[0]!.results[0]!.level = 'fatal';
    expect(validateSarif(log)).toBe(false);
    const noSchemaUri = render(sampleModelReport()) as unknown as Record<string, unknown>;
    noSchemaUri.$schema = 'not a uri';
    expect(validateSarif(noSchemaUri)).toBe(false);
    const badUri = render(sampleModelReport());
    badUri.runs[0].results[0]!.locations[0]!.physicalLocation.artifactLocation.uri = 'has space.ts';
    expect(validateSarif(badUri)).toBe(false);
  });
});

describe('renderSarif content', () => {
  test('one run by oy with its version, the schema URI and version 2.1.0', () => {
    const log = render(sampleModelReport());
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-schema-2\.1\.0\.json$/);
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0].tool.driver).toMatchObject({ name: 'oy', version: '0.1.0' });
    expect(renderSarif(sampleModelReport()).endsWith('}\n')).toBe(true);
  });

  test('rules: one per rule id, sorted, with severity score, level and the security tag', () => {
    const log = render(sampleModelReport());
    const { rules } = log.runs[0].tool.driver;
    expect(rules.map((rule) => rule.id)).toEqual([
      'oy/finding/access-control',
      'oy/finding/injection',
      'oy/history/secret-file',
      'oy/history/secret/aws-access-key-id',
      'oy/secret/stripe-live-key',
      'prompt/reviewer-instruction',
    ]);
    const injection = rules[1]!;
    // Its findings run from critical to info; the rule carries the highest.
    expect(injection.properties['security-severity']).toBe('9.5');
    expect(injection.defaultConfiguration.level).toBe('error');
    for (const rule of rules) {
      expect(rule.properties.tags).toContain('security');
      expect(rule.shortDescription.text).not.toBe('');
      expect(rule.fullDescription.text).not.toBe('');
      expect(Object.values(SECURITY_SEVERITY_SCORES)).toContain(
        rule.properties['security-severity'],
      );
    }
    expect(rules[5]!.properties['security-severity']).toBe('5.5');
    expect(rules[5]!.defaultConfiguration.level).toBe('warning');
  });

  test('security-severity scores fall in the GitHub buckets of their severity', () => {
    expect(Number(SECURITY_SEVERITY_SCORES.critical)).toBeGreaterThanOrEqual(9);
    expect(Number(SECURITY_SEVERITY_SCORES.high)).toBeGreaterThanOrEqual(7);
    expect(Number(SECURITY_SEVERITY_SCORES.high)).toBeLessThan(9);
    expect(Number(SECURITY_SEVERITY_SCORES.medium)).toBeGreaterThanOrEqual(4);
    expect(Number(SECURITY_SEVERITY_SCORES.medium)).toBeLessThan(7);
    expect(Number(SECURITY_SEVERITY_SCORES.low)).toBeGreaterThan(0);
    expect(Number(SECURITY_SEVERITY_SCORES.low)).toBeLessThan(4);
    expect(SECURITY_SEVERITY_SCORES.info).toBe('0.0');
  });

  test('every result points at its rule and has a level from its severity; a hint is never an error', () => {
    const log = render(sampleOfflineReport());
    const { rules } = log.runs[0].tool.driver;
    const levels = {
      critical: 'error',
      high: 'error',
      medium: 'warning',
      low: 'note',
      info: 'note',
    };
    for (const result of log.runs[0].results) {
      expect(rules[result.ruleIndex]?.id).toBe(result.ruleId);
      const level = levels[result.properties.severity as keyof typeof levels];
      const isHint = result.properties.excerpt !== undefined;
      expect(result.level).toBe(isHint && level === 'error' ? 'warning' : level);
    }
    expect(new Set(log.runs[0].results.map((result) => result.level))).toEqual(
      new Set(['error', 'warning', 'note']),
    );
  });

  test('offline results: committed secrets, secret files and hints, without the folded hint', () => {
    const results = resultsOf(sampleOfflineReport());
    const report = sampleOfflineReport();
    expect(results).toHaveLength(3 + 2 + report.hints.length - 1);
    const byRule = (ruleId: string) => results.filter((result) => result.ruleId === ruleId);
    expect(byRule('oy/secret/aws-access-key-id')).toHaveLength(1);
    expect(byRule('oy/secret/generic-password')).toHaveLength(0);
    expect(byRule('secret/hardcoded-credential')).toHaveLength(0);
    expect(
      byRule('oy/secret-file').map((result) => [
        result.level,
        result.locations[0]!.physicalLocation,
      ]),
    ).toEqual([
      [
        'error',
        {
          artifactLocation: { uri: 'deploy/server.pem', uriBaseId: '%SRCROOT%' },
          region: { startLine: 1 },
        },
      ],
      [
        'note',
        { artifactLocation: { uri: '.env', uriBaseId: '%SRCROOT%' }, region: { startLine: 1 } },
      ],
    ]);
    expect(byRule('js/math-random-token')).toHaveLength(14);
    for (const result of results) expect(result.properties.confidence).toBe('hint');
  });

  test('model results: verified findings with a region and confidence, secrets and markers; unverified are not results', () => {
    const report = sampleModelReport();
    const log = render(report);
    const results = log.runs[0].results;
    // The findings, the committed secret, the marker and the two secrets in the history.
    expect(results).toHaveLength(report.findings.length + 4);
    const inHistory = results.find((result) => result.ruleId.startsWith('oy/history/secret/'))!;
    expect(inHistory).toMatchObject({
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'deploy/config.ini' },
            region: { startLine: 2 },
          },
        },
      ],
      properties: { commit: '9d1e2f3a4b5c6d7e8f9012a3b4c5d6e7f8091a2b', source: 'deterministic' },
    });
    expect(inHistory.message.text).toContain('in commit 9d1e2f3a4b5c6d7e8f9012a3b4c5d6e7f8091a2b');
    const first = results[0]!;
    expect(first).toMatchObject({
      ruleId: 'oy/finding/injection',
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'src/app.ts', uriBaseId: '%SRCROOT%' },
            region: { startLine: 42, endLine: 43 },
          },
        },
      ],
      properties: {
        category: 'injection',
        confidence: 0.93,
        severity: 'critical',
        source: 'model',
      },
    });
    expect(first.message.text).toMatch(
      /^Command injection through the `ref` query parameter\n\nImpact: /,
    );
    const texts = results.map((result) => result.message.text).join('\n');
    for (const unverified of report.unverified) expect(texts).not.toContain(unverified.title);
    expect(log.runs[0].properties.unverifiedFindings).toBe(2);
    expect(results.map((result) => result.ruleId)).not.toContain('js/exec-interpolation');
  });

  test('the invocation: the command line, and success false for a partial run', () => {
    const partial = render(sampleModelReport()).runs[0].invocations[0]!;
    expect(partial.executionSuccessful).toBe(false);
    expect(partial.commandLine).toBe('oy audit --model claude-sonnet-4-5 --format markdown');
    expect(partial.endTimeUtc).toBe('2025-03-14T09:26:53.000Z');
    // Failed files, and files the repository's own content kept from the review, by path.
    expect(partial.toolExecutionNotifications.map((note) => note.message.text)).toEqual([
      'Not reviewed (generated): @generated',
      'Not reviewed (rate-limit): 429 after 4 retries',
      'Not reviewed (parse): model answer was not JSON twice',
      'Not reviewed (lockfile)',
    ]);
    expect(render(sampleOfflineReport()).runs[0].invocations[0]!.executionSuccessful).toBe(true);
  });

  test('the run carries %SRCROOT% and the coverage summary, without the ledger', () => {
    const run = render(sampleModelReport()).runs[0];
    expect(Object.keys(run.originalUriBaseIds)).toEqual(['%SRCROOT%']);
    expect(run.properties.coverage).toMatchObject({
      filesReviewed: 15,
      filesFailed: 2,
      isPartial: true,
      costUsd: 0.6966,
    });
    expect(run.properties.coverage).not.toHaveProperty('ledger');
    expect(run.properties.mode).toBe('model');
  });

  test('URIs are repository-relative and percent-encoded; lines stay at 1 or above', () => {
    const results = resultsOf(hostileReport());
    const odd = results.find((result) => result.message.text.startsWith('Odd path'))!;
    expect(odd.locations[0]!.physicalLocation.artifactLocation.uri).toBe(
      'dir%20with%20space/a%23b%25c%3F.ts',
    );
    expect(odd.locations[0]!.physicalLocation.region).toEqual({ startLine: 1 });
    expect(odd.ruleId).toBe('oy/finding/uncategorized');
    const unicode = results.find((result) => result.message.text.startsWith('Unicode path'))!;
    expect(decodeURI(unicode.locations[0]!.physicalLocation.artifactLocation.uri)).toBe(
      'src/ünïcødé/файл.ts',
    );
  });
});

describe('partialFingerprints', () => {
  function shiftLines(report: AuditReport, by: number): AuditReport {
    return {
      ...report,
      findings: report.findings.map((each) => ({
        ...each,
        line: each.line + by,
        endLine: each.endLine + by,
      })),
      hints: report.hints.map((each) => ({ ...each, line: each.line + by })),
      secrets: report.secrets.map((each) => ({ ...each, line: each.line + by })),
    };
  }

  test.each([
    ['offline', sampleOfflineReport()],
    ['model', sampleModelReport()],
  ] as const)(
    '%s: the same results keep their fingerprints when the code moves down',
    (_name, report) => {
      const before = resultsOf(report).map(fingerprintOf);
      const after = resultsOf(shiftLines(report, 25)).map(fingerprintOf);
      expect(after).toEqual(before);
      expect(new Set(before).size).toBe(before.length);
    },
  );

  test('a change in evidence, path or rule changes the fingerprint; whitespace does not', () => {
    const base = finding({ title: 'T', path: 'a.ts', line: 1, evidence: 'exec(cmd)' });
    const fingerprint = (changes: Partial<typeof base>) =>
      fingerprintOf(
        resultsOf({ ...sampleEmptyReport('model'), findings: [{ ...base, ...changes }] })[0]!,
      );
    const original = fingerprint({});
    expect(original).toMatch(/^[0-9a-f]{64}:1$/);
    expect(fingerprint({ evidence: '  exec(cmd)\n' })).toBe(original);
    expect(fingerprint({ title: 'Another title', confidence: 0.1, line: 99, endLine: 99 })).toBe(
      original,
    );
    expect(fingerprint({ evidence: 'exec(other)' })).not.toBe(original);
    expect(fingerprint({ path: 'b.ts' })).not.toBe(original);
    expect(fingerprint({ category: 'other' })).not.toBe(original);
  });

  test('a placeholder number, which changes from run to run, does not change the fingerprint', () => {
    const report = (n: number): AuditReport => ({
      ...sampleEmptyReport(),
      hints: [hint({ path: 'a.ts', line: 1, excerpt: `key = "[REDACTED:github-token:${n}]"` })],
    });
    expect(fingerprintOf(resultsOf(report(1))[0]!)).toBe(fingerprintOf(resultsOf(report(7))[0]!));
  });

  test('identical hints in one file are told apart by their order', () => {
    const report: AuditReport = {
      ...sampleEmptyReport(),
      hints: [
        hint({ path: 'a.ts', line: 30 }),
        hint({ path: 'a.ts', line: 10 }),
        hint({ path: 'b.ts', line: 10 }),
      ],
    };
    const fingerprints = resultsOf(report).map(fingerprintOf);
    expect(fingerprints[0]!.split(':')[0]).toBe(fingerprints[1]!.split(':')[0]);
    expect(fingerprints.map((each) => each.split(':')[1])).toEqual(['1', '2', '1']);
    expect(new Set(fingerprints).size).toBe(3);
  });
});
