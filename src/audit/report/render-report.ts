import type { ReportFormat } from '../../config/config-schema.js';
import type { AuditReport } from '../types.js';
import { renderJson } from './render-json.js';
import { renderMarkdown } from './render-markdown.js';
import { renderSarif } from './render-sarif.js';

export type { ReportFormat };

/** The report in the format `--format` names. */
export function renderReport(report: AuditReport, format: ReportFormat): string {
  switch (format) {
    case 'markdown':
      return renderMarkdown(report);
    case 'sarif':
      return renderSarif(report);
    case 'json':
      return renderJson(report);
  }
}
