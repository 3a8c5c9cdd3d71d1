import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// No test may touch the real home directory: each test file gets its own.
const home = mkdtempSync(path.join(tmpdir(), 'oy-home-'));
for (const [name, sub] of [
  ['XDG_CONFIG_HOME', '.config'],
  ['XDG_CACHE_HOME', '.cache'],
  ['XDG_STATE_HOME', '.local/state'],
] as const) {
  mkdirSync(path.join(home, sub), { recursive: true });
  process.env[name] = path.join(home, sub);
}
process.env.HOME = home;
process.env.OY_CONFIG = path.join(home, '.config', 'oy', 'config.json');
for (const name of [
  'OY_MODEL',
  'OY_ROOT',
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'NO_COLOR',
  'FORCE_COLOR',
]) {
  delete process.env[name];
}
