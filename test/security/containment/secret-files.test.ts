import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { readTool } from '../../../src/agent/tools/read-tool.js';
import { bashTool } from '../../../src/agent/tools/bash-tool.js';
import { makeToolContext } from '../../agent/tools/make-tool-context.js';
import {
  describeContainment,
  makeFolder,
  runBash,
  userEnv,
  type ContainmentCase,
} from './containment-support.js';

// Containment suite, secret-bearing files: bash cannot read what the read tool protects, in any
// encoding. `.env` holds a key drawn at run time; ten commands that encode it on the way out
// (the redactor decodes base64 but none of the other encodings) all fail. Every other secret-bearing name, a
// link to one and a hard link made before oy started are covered too. Controls: the same commands
// read the file once the user approved reading it in the session (through the read tool).

const root = makeFolder('oy-contain-secrets-');
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = path.join(root, 'home');
mkdirSync(home);

const secret = `sk_live_${randomBytes(18).toString('hex')}`;
const envText = `STRIPE_KEY=${secret}\n`;

/** Each command reads `.env` and prints it encoded, and how that encoding of the key would look. */
const ENCODINGS: Array<{ name: string; command: string; shows: (text: string) => string }> = [
  { name: 'cat', command: 'cat .env', shows: (t) => t },
  {
    name: 'base64',
    command: 'base64 -w0 .env',
    shows: (t) => Buffer.from(t).toString('base64'),
  },
  { name: 'base32', command: 'base32 -w0 .env', shows: (t) => base32(t) },
  {
    name: 'xxd',
    command: 'xxd -p .env | tr -d "\\n"',
    shows: (t) => Buffer.from(t).toString('hex'),
  },
  {
    name: 'od',
    command: "od -An -tx1 -v .env | tr -d ' \\n'",
    shows: (t) => Buffer.from(t).toString('hex'),
  },
  { name: 'rev', command: 'rev .env', shows: (t) => `${[...t.trimEnd()].reverse().join('')}\n` },
  { name: 'fold', command: 'fold -w4 .env | tr -d "\\n"', shows: (t) => t.replaceAll('\n', '') },
  {
    name: 'tr rot13',
    command: "tr 'A-Za-z' 'N-ZA-Mn-za-m' < .env",
    shows: (t) => t.replace(/[A-Za-z]/g, rot13),
  },
  {
    name: 'python',
    command: 'python3 -c "import sys; print(open(\'.env\').read()[::-1].encode().hex())"',
    shows: (t) => Buffer.from([...t].reverse().join('')).toString('hex'),
  },
  {
    name: 'node',
    command:
      "node -e \"process.stdout.write(Buffer.from(require('fs').readFileSync('.env')).toString('base64url'))\"",
    shows: (t) => Buffer.from(t).toString('base64url'),
  },
];

/** The encodings whose output the redactor reads the key in. */
const REDACTED_FORMS = new Set(['cat', 'fold', 'base64', 'node']);

function rot13(letter: string): string {
  const base = letter <= 'Z' ? 65 : 97;
  return String.fromCharCode(((letter.charCodeAt(0) - base + 13) % 26) + base);
}

function base32(text: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const byte of Buffer.from(text)) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let index = 0; index < bits.length; index += 5)
    out += alphabet[Number.parseInt(bits.slice(index, index + 5).padEnd(5, '0'), 2)];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

function makeWorkspace(): string {
  const workspace = realpathSync(makeFolderIn(root));
  writeFileSync(path.join(workspace, '.env'), envText);
  return workspace;
}

let serial = 0;
function makeFolderIn(parent: string): string {
  serial += 1;
  const folder = path.join(parent, `ws-${serial}`);
  mkdirSync(folder);
  return folder;
}

/** The key in one encoding, cut to the part that carries the key (not the `STRIPE_KEY=` prefix). */
function keyIn(encoding: (typeof ENCODINGS)[number]): string {
  const shown = encoding.shows(envText);
  // A stretch in the middle: encodings of the whole line share it with the key's own encoding.
  return shown.slice(Math.floor(shown.length / 3), Math.floor((shown.length * 2) / 3));
}

const cases: ContainmentCase[] = [
  ...ENCODINGS.map((encoding) => ({
    name: `.env read by bash through ${encoding.name}: refused, nothing of the key shown`,
    async check() {
      const workspace = makeWorkspace();
      const result = await runBash(workspace, encoding.command, { baseEnv: userEnv(home) });
      expect(result.sandboxed).toBe(true);
      const seen = `${String(result.stdout)}${String(result.stderr)}`;
      expect(seen).not.toContain(keyIn(encoding));
      expect(seen).not.toContain(secret);
      expect(seen).toMatch(/Permission denied/i);
    },
  })),
  {
    name: 'control: each encoding shows the key once the user approved reading .env (read tool)',
    async check() {
      const workspace = makeWorkspace();
      const revealedFiles = new Set<string>();
      const shell = {
        sandbox: 'on' as const,
        allowedEnvNames: [],
        baseEnv: userEnv(home),
        allowNetwork: false,
        revealedFiles,
      };
      const context = makeToolContext(workspace, {
        mode: 'auto',
        isInteractive: true,
        answer: true,
        overrides: { shell },
      });
      const read = await readTool.run({ path: '.env' }, context);
      expect(read.ok).toBe(true);
      expect([...revealedFiles]).toEqual([path.join(workspace, '.env')]);
      for (const encoding of ENCODINGS) {
        const result = JSON.parse(
          (await bashTool.run({ command: encoding.command }, context)).content,
        );
        // The bash result is redacted: the plain key (cat, or fold joined again) and its base64
        // forms, which the redactor decodes, come back as a placeholder; the other encodings as they are.
        if (REDACTED_FORMS.has(encoding.name)) expect(result.stdout).toContain('[REDACTED');
        else expect(result.stdout, encoding.name).toContain(keyIn(encoding));
      }
    },
  },
  {
    name: 'every other secret-bearing name, a link to one, and a hard link made beforehand are unreadable',
    async check() {
      const workspace = makeWorkspace();
      const files = [
        '.env.production',
        'config/server.key',
        'certs/tls.pem',
        'deploy/id_ed25519',
        '.npmrc',
        'infra/prod.tfvars',
        'keys/release.jks',
        'app/.docker/config.json',
      ];
      for (const [index, file] of files.entries()) {
        mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
        writeFileSync(path.join(workspace, file), `SECRET-${secret}-${index}\n`);
      }
      symlinkSync('.env', path.join(workspace, 'settings.txt'));
      linkSync(path.join(workspace, '.env'), path.join(workspace, 'notes.txt'));
      const names = [...files, 'settings.txt', 'notes.txt'];
      const result = await runBash(
        workspace,
        names.map((name) => `cat '${name}' | base64 -w0; echo`).join('; '),
        { baseEnv: userEnv(home) },
      );
      const seen = `${String(result.stdout)}${String(result.stderr)}`;
      expect(seen.match(/Permission denied/g)).toHaveLength(names.length);
      for (const [index] of files.entries())
        expect(seen).not.toContain(
          Buffer.from(`SECRET-${secret}-${index}`).toString('base64').slice(8, 40),
        );
      expect(seen).not.toContain(Buffer.from(envText).toString('base64').slice(8, 40));
    },
  },
  {
    name: 'a covered file cannot be replaced, renamed away or hard-linked from inside',
    async check() {
      const workspace = makeWorkspace();
      const result = await runBash(
        workspace,
        'echo x > .env; mv .env moved; ln .env linked; rm -f .env; cat moved linked 2>&1; echo done',
        { baseEnv: userEnv(home) },
      );
      expect(result.stdout).toContain('done');
      expect(String(result.stdout)).not.toContain(secret);
      expect(String(result.stderr)).toMatch(/Read-only file system|Device or resource busy/);
    },
  },
];

describeContainment('secret-bearing files', cases);
