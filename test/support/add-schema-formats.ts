import type { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

// A CommonJS module: under NodeNext its default import is `module.exports`, whose `default` is the plugin.
const addFormats = addFormatsModule.default;

/** Adds the JSON Schema string formats (`date-time`, `uri`, `uri-reference`, ...) the SARIF and report schemas use. */
export function addSchemaFormats(ajv: Ajv | object): void {
  addFormats(ajv as Ajv);
}
