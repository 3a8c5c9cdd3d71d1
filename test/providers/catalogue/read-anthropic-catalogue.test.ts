import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseDeprecatedModels,
  parseModelUnion,
  readAnthropicCatalogue,
} from '../../../src/providers/catalogue/read-anthropic-catalogue.js';

function fakeSdk(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'oy-fake-sdk-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return root;
}

describe('readAnthropicCatalogue', () => {
  it('reads the installed SDK', () => {
    const catalogue = readAnthropicCatalogue();
    expect(catalogue.sdkVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(catalogue.models.length).toBeGreaterThan(0);
    expect(catalogue.models.every((id) => id.startsWith('claude-'))).toBe(true);
    for (const id of Object.keys(catalogue.deprecated)) expect(id).toMatch(/^claude-/);
  });

  it('reads the union and the deprecation map of a given SDK directory', () => {
    const root = fakeSdk({
      'package.json': '{"name":"@anthropic-ai/sdk","version":"9.9.9"}',
      'resources/messages/messages.d.ts':
        "export type Foo = 'x';\nexport type Model = 'claude-new-1' | 'claude-old-0' | 'claude-new-1' | (string & {});\n",
      'resources/messages/messages.js':
        "const DEPRECATED_MODELS = {\n    'claude-old-0': 'January 1st, 2027',\n};\n",
    });
    expect(readAnthropicCatalogue(() => root)).toEqual({
      sdkVersion: '9.9.9',
      models: ['claude-new-1', 'claude-old-0'],
      deprecated: { 'claude-old-0': 'January 1st, 2027' },
    });
  });

  it('fails clearly when the union is gone, instead of listing stale ids', () => {
    const root = fakeSdk({
      'package.json': '{"version":"2.0.0"}',
      'resources/messages/messages.d.ts': 'export type Model = string;\n',
      'resources/messages/messages.js': '',
    });
    expect(() => readAnthropicCatalogue(() => root)).toThrow(
      /no model ids found in @anthropic-ai\/sdk 2\.0\.0/,
    );
  });

  it('fails clearly when a file is missing', () => {
    const root = fakeSdk({ 'package.json': '{"version":"2.0.0"}' });
    expect(() => readAnthropicCatalogue(() => root)).toThrow(
      /cannot read @anthropic-ai\/sdk\/resources\/messages\/messages\.d\.ts/,
    );
  });

  it('parses no deprecations when the map is absent', () => {
    expect(parseDeprecatedModels('module.exports = {};')).toEqual({});
    expect(parseModelUnion('nothing here')).toEqual([]);
  });
});
