import { readFileSync } from 'node:fs';
import path from 'node:path';
import AjvDraft04Module from 'ajv-draft-04';
import { addSchemaFormats } from './add-schema-formats.js';

const schema = JSON.parse(
  readFileSync(
    path.join(import.meta.dirname, '..', 'fixtures', 'sarif', 'sarif-schema-2.1.0.json'),
    'utf8',
  ),
) as object;

/** Validates a SARIF log against the OASIS SARIF 2.1.0 schema; returns the errors, empty when valid. */
export function validateSarif(log: unknown): string[] {
  // A CommonJS module: under NodeNext its default import is `module.exports`, whose `default` is the class.
  const ajv = new AjvDraft04Module.default({ allErrors: true });
  addSchemaFormats(ajv);
  const validate = ajv.compile(schema);
  return validate(log)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
}
