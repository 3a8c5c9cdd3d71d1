import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { sealOutput } from '../../../src/audit/outputs/output-seal.js';
import { renderJson } from '../../../src/audit/report/render-json.js';
import type { AuditReport } from '../../../src/audit/types.js';
import { addSchemaFormats } from '../../support/add-schema-formats.js';
import {
  sampleEmptyReport,
  sampleModelReport,
  sampleOfflineReport,
} from '../../support/sample-report.js';

const SNAPSHOTS = path.join(import.meta.dirname, '../../../snapshots/audit/report/json');
const REPORT_SCHEMA = JSON.parse(
  readFileSync(
    path.join(import.meta.dirname, '../../../src/audit/report/audit-report.schema.json'),
    'utf8',
  ),
) as object;

const ajv = new Ajv({ allErrors: true, strict: true });
addSchemaFormats(ajv);
const validateReport = ajv.compile(REPORT_SCHEMA);

const REPORTS = [
  ['offline', sampleOfflineReport()],
  ['model', sampleModelReport()],
  ['empty', sampleEmptyReport()],
] as const;

describe('renderJson', () => {
  test.each(REPORTS)('%s report snapshot', async (name, report) => {
    await expect(renderJson(report)).toMatchFileSnapshot(path.join(SNAPSHOTS, `${name}.json`));
  });

  test.each(REPORTS)(
    'the %s report is the AuditReport itself, pretty, with a final newline',
    (_name, report) => {
      const json = renderJson(report);
      expect(JSON.parse(json)).toEqual(report);
      expect(json.endsWith('}\n')).toBe(true);
      expect(json.split('\n')[1]).toBe('  "schemaVersion": 1,');
    },
  );

  test.each(REPORTS)(
    'the %s report validates against audit-report.schema.json',
    (_name, report) => {
      const isValid = validateReport(JSON.parse(renderJson(report)));
      expect(validateReport.errors ?? []).toEqual([]);
      expect(isValid).toBe(true);
    },
  );
});

describe('audit-report.schema.json', () => {
  function rendered(change: (report: Record<string, unknown> & AuditReport) => void): unknown {
    const report = JSON.parse(renderJson(sampleModelReport())) as Record<string, unknown> &
      AuditReport;
    change(report);
    return report;
  }

  test.each([
    ['a missing field', (report: AuditReport) => delete (report as Partial<AuditReport>).coverage],
    [
      'an unknown severity',
      (report: AuditReport) => void (report.findings[0]!.severity = 'urgent' as never),
    ],
    [
      'a secret that carries a value',
      (report: AuditReport) => void Object.assign(report.secrets[0]!, { value: 'sk_live_x' }),
    ],
    ['a confidence above 1', (report: AuditReport) => void (report.findings[0]!.confidence = 1.5)],
    ['a line 0', (report: AuditReport) => void (report.hints[0]!.line = 0)],
    [
      'another schema version',
      (report: AuditReport) => void Object.assign(report, { schemaVersion: 2 }),
    ],
    ['a bad timestamp', (report: AuditReport) => void (report.generatedAt = 'yesterday')],
    [
      'an unknown ledger status',
      (report: AuditReport) => void Object.assign(report.coverage.ledger[0]!, { status: 'lost' }),
    ],
    [
      'an unknown top-level field',
      (report: AuditReport) => void Object.assign(report, { apiKey: 'x' }),
    ],
  ])('rejects %s', (_name, change) => {
    expect(validateReport(rendered(change))).toBe(false);
  });

  test('describes every field of a fully populated report', () => {
    const schema = REPORT_SCHEMA as { required: string[]; properties: Record<string, unknown> };
    // The history scan is present only when commits were scanned (`--diff`, `--history`).
    const optional = ['history'];
    expect([...schema.required].sort()).toEqual(
      Object.keys(sampleModelReport())
        .filter((key) => !optional.includes(key))
        .sort(),
    );
    // The seal is no field of the report: it is added as the file is written.
    const fields = Object.keys(schema.properties).filter((key) => key !== 'oySeal');
    // `summaryMissing` is present only when a model run's summary is missing.
    expect(fields.sort()).toEqual([...Object.keys(sampleModelReport()), 'summaryMissing'].sort());
  });

  test('accepts a missing summary with its reason, and rejects an unknown reason', () => {
    const missing = { reason: 'failed', detail: 'the reduce call failed: overloaded' };
    const withMissing = (reason: string) =>
      rendered((report) => {
        report.summary = null;
        report.summaryMissing = { ...missing, reason } as never;
      });
    expect(validateReport(withMissing('failed'))).toBe(true);
    expect(validateReport(withMissing('whatever'))).toBe(false);
  });

  test('accepts the report as written, with its seal as the last key', () => {
    const sealed = JSON.parse(sealOutput(renderJson(sampleModelReport()), 'json')) as object;
    expect(Object.keys(sealed).at(-1)).toBe('oySeal');
    expect(validateReport(sealed)).toBe(true);
  });
});
