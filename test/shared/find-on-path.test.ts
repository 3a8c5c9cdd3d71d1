import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAbsolutePathEntries } from '../../src/shared/absolute-path-entries.js';
import { findOnPath } from '../../src/shared/find-on-path.js';

let root: string;
const tool = (folder: string, name: string, mode = 0o755): string => {
  mkdirSync(path.join(root, folder), { recursive: true });
  const file = path.join(root, folder, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, mode);
  return file;
};

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-find-on-path-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('findOnPath', () => {
  it('finds the first executable file in an absolute entry', () => {
    tool('a', 'other');
    tool('b', 'tool', 0o644);
    const wanted = tool('c', 'tool');
    tool('d', 'tool');
    const pathVariable = ['a', 'b', 'c', 'd'].map((dir) => path.join(root, dir)).join(':');
    expect(findOnPath('tool', pathVariable)).toBe(wanted);
  });

  it('skips relative and empty entries, which name folders of the workspace', () => {
    const previous = process.cwd();
    tool('ws/node_modules/.bin', 'git');
    tool('ws/bin', 'git');
    const real = tool('real', 'git');
    process.chdir(path.join(root, 'ws'));
    try {
      const pathVariable = ['./node_modules/.bin', '', 'bin', '.', path.join(root, 'real')].join(
        ':',
      );
      expect(findOnPath('git', pathVariable)).toBe(real);
      expect(findOnPath('git', './node_modules/.bin::bin')).toBeNull();
    } finally {
      process.chdir(previous);
    }
  });

  it('is null without PATH, and skips folders named like the tool', () => {
    expect(findOnPath('git', undefined)).toBeNull();
    mkdirSync(path.join(root, 'e', 'tool'), { recursive: true });
    expect(findOnPath('tool', path.join(root, 'e'))).toBeNull();
  });
});

describe('keepAbsolutePathEntries', () => {
  it('drops relative and empty entries and keeps the order of the rest', () => {
    expect(keepAbsolutePathEntries('./node_modules/.bin:/usr/bin::bin:/bin:.')).toBe(
      '/usr/bin:/bin',
    );
    expect(keepAbsolutePathEntries(undefined)).toBe('');
  });
});
