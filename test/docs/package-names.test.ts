import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../support/ci-shims.js';
import { PROJECT_ROOT } from '../support/run-oy.js';

/**
 * Every package a doc tells users to fetch with npx or npm install is this project, by its own
 * package.json name and a version range its version satisfies: a recipe that names another
 * package would run a stranger's code in CI. A few third-party packages are named on purpose,
 * each with its reason below.
 */
const PACKAGE = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Third-party packages the docs name on purpose, and why that is not a recipe fetching them for oy. */
const NAMED_ON_PURPOSE: Readonly<Record<string, string>> = {
  '@modelcontextprotocol/server-github':
    'an MCP server the user chooses to configure, by the MCP project; oy does not fetch it',
  '@modelcontextprotocol/server-filesystem':
    'an MCP server the user chooses to configure, by the MCP project; oy does not fetch it',
  'repomix@1.14.0': 'the reference the benchmarks compare with (spec/performance.md)',
};

/** oy's own command, which npx finds in a checkout or a project that installed this package. */
const OWN_BIN = 'oy';

function listDocs(): string[] {
  const files = ['README.md', 'SECURITY.md', 'ARCHITECTURE.md', 'action.yml'];
  for (const folder of ['docs', 'examples']) {
    const walk = (dir: string): void => {
      let names: string[];
      try {
        names = readdirSync(path.join(PROJECT_ROOT, dir));
      } catch {
        return;
      }
      for (const name of names) {
        const relative = path.join(dir, name);
        if (statSync(path.join(PROJECT_ROOT, relative)).isDirectory()) walk(relative);
        else files.push(relative);
      }
    };
    walk(folder);
  }
  return files;
}

/** The package word of each `npx [options] <package>` and `npm install|i|add [options] <package>`. */
function fetchedPackages(text: string): { word: string; kind: 'npx' | 'install' }[] {
  const found: { word: string; kind: 'npx' | 'install' }[] = [];
  for (const match of text.matchAll(
    /\bnpx((?:\s+(?:--yes|-y|--no-install|--package=\S+))*)\s+["']?([^\s`'"]+)/g,
  )) {
    found.push({ word: match[2]!.replace(/^["']|["']$/g, ''), kind: 'npx' });
  }
  for (const match of text.matchAll(
    /\bnpm\s+(?:install|i|add)((?:\s+(?:-g|--global|-D|--save-dev|--no-save))*)\s+["']?([^\s`'"#]+)/g,
  )) {
    found.push({ word: match[2]!, kind: 'install' });
  }
  return found;
}

/** `name@range` where the range is a prefix of this version's numbers (`0`, `0.1`, `0.1.0`) or `<version>`. */
function isOwnPackage(word: string): boolean {
  const quoted = word.replace(/^"|"$/g, '');
  if (quoted === PACKAGE_NAME) return true;
  if (!quoted.startsWith(`${PACKAGE_NAME}@`)) return false;
  const range = quoted.slice(PACKAGE_NAME.length + 1);
  if (range === '<version>' || range === '$OY_INPUT_VERSION') return true;
  return `${PACKAGE_VERSION}.`.startsWith(`${range}.`);
}

describe('package names in the docs', () => {
  const docs = listDocs();

  it('reads the docs it is meant to check', () => {
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'action.yml']));
    expect(docs.some((file) => file.startsWith('examples'))).toBe(true);
  });

  it(`every npx and npm install names ${PACKAGE_NAME}, oy's own command, a local tool, or a package named on purpose`, () => {
    const local = new Set([
      ...Object.keys(PACKAGE.dependencies),
      ...Object.keys(PACKAGE.devDependencies),
    ]);
    const strangers: string[] = [];
    let checked = 0;
    for (const file of docs) {
      for (const { word, kind } of fetchedPackages(
        readFileSync(path.join(PROJECT_ROOT, file), 'utf8'),
      )) {
        checked++;
        if (isOwnPackage(word) || word in NAMED_ON_PURPOSE) continue;
        if (kind === 'install' && word === '.') continue;
        // `npx -y <pkg>`: a placeholder in prose, naming no package.
        if (/^<[a-z]+>$/.test(word)) continue;
        if (kind === 'npx' && (word === OWN_BIN || local.has(word))) continue;
        strangers.push(`${file}: ${kind} ${word}`);
      }
    }
    expect(checked).toBeGreaterThan(3);
    expect(strangers).toEqual([]);
  });

  it.each([
    ['npx --yes oy-cli@1 audit', false],
    [`npx --yes ${PACKAGE_NAME}@9 audit`, false],
    ['npm install -g oy', false],
    [`npx --yes ${PACKAGE_NAME}@${PACKAGE_VERSION.split('.')[0]} audit`, true],
  ])('control: %s is %s', (line, isAccepted) => {
    const [found] = fetchedPackages(line);
    expect(found).toBeDefined();
    expect(isOwnPackage(found!.word)).toBe(isAccepted);
  });
});
