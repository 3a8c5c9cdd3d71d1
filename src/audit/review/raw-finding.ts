import { z } from 'zod';
import { SEVERITIES, type Severity } from '../types.js';

/** Confidence given to a finding the model sent without one: the middle, ranking it neither up nor down. */
export const DEFAULT_CONFIDENCE = 0.5;

// Names models use for a severity outside the five we ask for.
const SEVERITY_ALIASES: Record<string, Severity> = {
  informational: 'info',
  information: 'info',
  moderate: 'medium',
  crit: 'critical',
};

// `42`, `"42"`, `"L42"`, and the start of `"42-45"`.
const LINE_TEXT = /^\s*L?(\d+)(?:\s*[-–]\s*L?\d+)?\s*$/i;

const lineNumber = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const match = LINE_TEXT.exec(value);
  return match?.[1] === undefined ? value : Number(match[1]);
}, z.number().int().positive());

const severity = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    const name = value.trim().toLowerCase();
    return SEVERITY_ALIASES[name] ?? name;
  },
  z.enum(SEVERITIES as [Severity, ...Severity[]]),
);

// A percentage (`85`, `"85%"`) becomes a fraction; anything outside 0..100 is refused.
const confidence = z.preprocess((value) => {
  const number = typeof value === 'string' ? Number(value.trim().replace(/%$/, '')) : value;
  return typeof number === 'number' && number > 1 ? number / 100 : number;
}, z.number().min(0).max(1));

const requiredText = z.string().trim().min(1);
const optionalText = z.preprocess((value) => value ?? '', z.string().trim());

// Models sometimes send evidence as an array of lines.
const evidence = z.preprocess(
  (value) =>
    Array.isArray(value) && value.every((line) => typeof line === 'string')
      ? value.join('\n')
      : value,
  z.string().refine((text) => text.trim() !== '', 'must not be empty'),
);

/** One finding as the model wrote it, validated and normalised; not yet checked against the source. */
export const rawFindingSchema = z
  .object({
    title: requiredText,
    severity,
    category: z.preprocess(
      (value) => (typeof value === 'string' ? kebabCase(value) || 'other' : (value ?? 'other')),
      requiredText,
    ),
    path: z.preprocess(
      (value) => (typeof value === 'string' ? cleanPath(value) : value),
      requiredText,
    ),
    line: lineNumber,
    end_line: z.preprocess((value) => (value === null ? undefined : value), lineNumber.optional()),
    endLine: z.preprocess((value) => (value === null ? undefined : value), lineNumber.optional()),
    evidence,
    impact: optionalText,
    preconditions: optionalText,
    fix: optionalText,
    confidence: z.preprocess((value) => value ?? DEFAULT_CONFIDENCE, confidence),
  })
  .transform(({ end_line, endLine, ...finding }) => ({
    ...finding,
    endLine: Math.max(finding.line, end_line ?? endLine ?? finding.line),
  }));

export type RawFinding = z.output<typeof rawFindingSchema>;

// A path copied from a part header may keep its `./` or its `(lines a-b)` label.
function cleanPath(path: string): string {
  return path
    .trim()
    .replace(/^(\.\/)+/, '')
    .replace(/\s+\(lines \d+-\d+\)$/, '');
}

// `SQL Injection` and `sql_injection` name one SARIF rule: `sql-injection`.
function kebabCase(category: string): string {
  return category
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
