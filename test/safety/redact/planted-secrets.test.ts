import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redaction } from '../../../src/audit/types.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { isSecretBearingFile } from '../../../src/safety/secret-files.js';
import {
  PLANTED_SECRET_KINDS,
  plantSecretRepo,
  type PlantedSecret,
} from '../../support/plant-secrets.js';

describe('planted-secret fixture repository', () => {
  let dir = '';
  let planted: PlantedSecret[] = [];
  const redactedByPath = new Map<string, { text: string; redactions: Redaction[] }>();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'oy-planted-'));
    planted = await plantSecretRepo(dir);
    const redactor = createRedactor();
    const readable = [...new Set(planted.map((secret) => secret.path))].filter(
      (file) => !isSecretBearingFile(file),
    );
    for (const file of readable) {
      redactedByPath.set(file, redactor.redact(await readFile(path.join(dir, file), 'utf8')));
    }
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('plants at least 60 distinct secrets of at least 25 kinds, every kind used', () => {
    expect(planted.length).toBeGreaterThanOrEqual(60);
    expect(new Set(planted.map((secret) => secret.value)).size).toBe(planted.length);
    const kindsUsed = new Set(planted.map((secret) => secret.kind));
    expect(kindsUsed.size).toBeGreaterThanOrEqual(25);
    expect([...kindsUsed].sort()).toEqual(PLANTED_SECRET_KINDS.map((kind) => kind.kind).sort());
  });

  it('puts secrets in source, config, docs, CI, a .env.example and secret-bearing files', () => {
    const paths = new Set(planted.map((secret) => secret.path));
    const extensions = new Set([...paths].map((file) => path.posix.extname(file)));
    for (const expected of [
      '.ts',
      '.js',
      '.py',
      '.go',
      '.rb',
      '.cs',
      '.tf',
      '.yaml',
      '.yml',
      '.json',
      '.toml',
      '.ini',
      '.properties',
      '.md',
      '.sh',
      '.asc',
      '.key',
    ]) {
      expect(extensions, expected).toContain(expected);
    }
    for (const expected of [
      'deploy/Dockerfile',
      '.env.example',
      '.env',
      'k8s/secret.yaml',
      'deploy/gcp-service-account.json',
    ]) {
      expect(paths, expected).toContain(expected);
    }
    expect(planted.filter((secret) => secret.isSecretFile).map((secret) => secret.path)).toEqual(
      expect.arrayContaining(['.env', 'certs/server.key']),
    );
    expect(planted.every((secret) => secret.isSecretFile === (secret.rule === 'secret-file'))).toBe(
      true,
    );
    expect(planted.some((secret) => secret.path === '.env.example' && !secret.isSecretFile)).toBe(
      true,
    );
  });

  it('the planted files hold each value on the line the fixture reports', async () => {
    for (const secret of planted) {
      const text = await readFile(path.join(dir, secret.path), 'utf8');
      const firstLine = secret.value.split('\n')[0] ?? '';
      expect(text.split('\n')[secret.line - 1], `${secret.path}:${secret.line}`).toContain(
        firstLine,
      );
    }
  });

  it('no planted value survives redaction of any readable file', () => {
    for (const [file, result] of redactedByPath) {
      for (const secret of planted) {
        expect(
          result.text.includes(secret.value),
          `${secret.kind} from ${secret.path} in ${file}`,
        ).toBe(false);
      }
    }
  });

  it('each planted secret gets a redaction of its expected rule on its expected line', () => {
    const readable = planted.filter((secret) => !secret.isSecretFile);
    expect(readable.length).toBeGreaterThanOrEqual(60);
    const misses = readable.filter((secret) => {
      const redactions = redactedByPath.get(secret.path)?.redactions ?? [];
      return !redactions.some(
        (redaction) => redaction.rule === secret.rule && redaction.line === secret.line,
      );
    });
    expect(
      misses.map((secret) => `${secret.kind} ${secret.path}:${secret.line} (${secret.rule})`),
    ).toEqual([]);
  });

  it('redacts nothing that was not planted (placeholders in the fixture stay)', () => {
    for (const [file, result] of redactedByPath) {
      const expected = planted.filter((secret) => secret.path === file).length;
      expect(result.redactions.length, file).toBe(expected);
    }
    expect(redactedByPath.get('.env.example')?.text).toContain('billing:change-me@localhost');
    expect(redactedByPath.get('.github/workflows/release.yml')?.text).toContain(
      '${{ secrets.NPM_TOKEN }}',
    );
  });

  it('keeps every readable file at its line count', async () => {
    for (const [file, result] of redactedByPath) {
      const original = await readFile(path.join(dir, file), 'utf8');
      expect(result.text.split('\n').length, file).toBe(original.split('\n').length);
    }
  });
});
