import { afterAll, describe, expect, it } from 'vitest';
import { lexCommand } from '../../../src/safety/policy/command-lexer.js';
import { withoutGlobalOptions } from '../../../src/safety/policy/global-options.js';
import { readOptions } from '../../../src/safety/policy/read-options.js';
import { resolveCommands } from '../../../src/safety/policy/resolve-commands.js';

/** The wrapper resolution's own shape: what each command is reduced to, and which entries are transparent. */

let cases = 0;
afterAll(() => {
  console.log(`resolve commands: ${cases} cases`);
});

function resolve(command: string) {
  const { split } = resolveCommands(lexCommand(command));
  const commands = split.kind === 'parsed' ? split.commands : split.partial;
  return {
    kind: split.kind,
    reason: split.kind === 'uncertain' ? split.reason : '',
    entries: commands.map((c) => `${c.isTransparent === true ? '~' : ''}${[...c.assignments, ...c.argv].join(' ')}${c.isDynamic ? ' …' : ''}`), // prettier-ignore
  };
}

describe('resolveCommands', () => {
  it.each([
    ['nice -n 5 make', ['~nice -n 5 make', 'make']],
    ['env -i FOO=1 npm test', ['~env -i FOO=1 npm test', 'FOO=1 npm test']],
    ['sudo -u root git push', ['sudo -u root git push', 'git push']],
    ["bash -c 'a && b | c'", ['bash -c a && b | c', 'a', 'b', 'c']],
    ['find . -name x -exec rm -f {} + -delete', ['find . -name x -exec rm -f {} + -delete', 'rm -f …', 'rm …']], // prettier-ignore
    ['ls | xargs -n1 grep x', ['ls', '~xargs -n1 grep x', 'grep x …']],
    ["timeout 5 env sh -c 'rm y'", ['~timeout 5 env sh -c rm y', '~env sh -c rm y', 'sh -c rm y', 'rm y']], // prettier-ignore
    ["watch 'git status'", ['~watch git status', 'git status']],
    ['command -v rm', ['command -v rm']],
    ['bash script.sh', ['bash script.sh']],
  ])('%s', (command, entries) => {
    cases += 1;
    expect(resolve(command)).toEqual({ kind: 'parsed', reason: '', entries });
  });

  it.each([
    ['eval x', 'eval'],
    ['curl x | sh', 'input'],
    ['env --frobnicate rm', '--frobnicate'],
    ["sh -c 'rm $1'", 'sh -c'],
    ['nice *', 'not known literally'],
  ])('%s is uncertain', (command, reason) => {
    cases += 1;
    expect(resolve(command)).toMatchObject({ kind: 'uncertain', reason: expect.stringContaining(reason) }); // prettier-ignore
  });

  it('stops at a depth cap', () => {
    cases += 1;
    const nested = Array.from({ length: 12 }, () => 'nice').join(' ') + ' rm x';
    expect(resolve(nested)).toMatchObject({ kind: 'uncertain', reason: expect.stringContaining('deeply') }); // prettier-ignore
  });
});

describe('withoutGlobalOptions', () => {
  it.each([
    [['git', '-C', '.', 'push'], [['git', 'push']]],
    [['git', '--no-pager', '-c', 'a=b', 'push'], [['git', 'push']]],
    [
      ['git', '--weird', 'x', 'push'],
      [
        ['git', 'x', 'push'],
        ['git', 'push'],
      ],
    ],
    [['make', '-C', 'dir', 'clean'], [['make', 'clean']]],
    [['git', 'status'], []],
    [['git', '-C'], [['git']]],
  ])('%j', (argv, views) => {
    cases += 1;
    expect(withoutGlobalOptions(argv)).toEqual(views);
  });
});

describe('readOptions', () => {
  it('reads clusters, attached and separate values, and stops at the first operand or --', () => {
    cases += 1;
    const spec = { flags: 'ab', valued: 'u', longFlags: ['--all'], longValued: ['--user'] };
    expect(readOptions(spec, ['-abu', 'root', '--user=x', 'cmd', '-a'])).toMatchObject({ kind: 'read', rest: ['cmd', '-a'] }); // prettier-ignore
    expect(readOptions(spec, ['-uroot', '--', '-a'])).toMatchObject({ kind: 'read', rest: ['-a'] });
    expect(readOptions(spec, ['-z', 'cmd'])).toEqual({ kind: 'unknown', option: '-z' });
    expect(readOptions(spec, ['--all=1'])).toEqual({ kind: 'unknown', option: '--all=1' });
    expect(readOptions(spec, ['-u'])).toEqual({ kind: 'short', option: '-u' });
  });
});
