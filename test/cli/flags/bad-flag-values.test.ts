import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_CONFIG_FLAGS, AUDIT_FLAGS } from '../../../src/cli/flags/audit-flags.js';
import { buildFlagLayer } from '../../../src/cli/flags/build-flag-layer.js';
import { COMMANDS, GLOBAL_FLAGS, SHORTHAND } from '../../../src/cli/flags/command-table.js';
import { isValueFlag, type CommandSpec, type ValueFlag } from '../../../src/cli/flags/flag-spec.js';
import { parseCommandLine } from '../../../src/cli/flags/parse-command-line.js';
import { handleError } from '../../../src/cli/handle-error.js';

/** Every bad value of every flag of every command, from the flag table itself, parsed in-process. */
let cases = 0;
afterAll(() => console.log(`bad flag values: ${cases} cases`));

/** Bad values for one flag, chosen by its kind and bounds. */
function badValues(spec: ValueFlag): string[] {
  switch (spec.kind) {
    case 'integer':
      return [
        String(spec.bounds.min - 1),
        '-1',
        String(spec.bounds.max + 1),
        '1.5',
        'abc',
        '0x10',
        '1e3',
        ' 7',
        '',
      ];
    case 'decimal':
      return [
        'abc',
        '-1',
        String(spec.bounds.max + 1),
        '1e-1',
        '0x1',
        '1,5',
        '',
        ...(spec.exclusiveMin ? [String(spec.bounds.min)] : []),
      ];
    case 'duration':
      return ['abc', '', '-1h', '10', '1.5h', '1h 30m', '0s', '25h', '0m'];
    case 'choice':
      return ['bogus', '', spec.choices.join(',')];
    case 'text':
      return [
        '',
        '  ',
        ...(spec.isStdoutAllowed ? [] : ['-']),
        ...(spec.isRef ? ['--output=x'] : []),
      ];
  }
}

/** What `oy` prints for an error, and its exit code. */
function printError(run: () => unknown): { code: number; text: string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  try {
    run();
  } catch (error) {
    return { code: handleError(error, false, stream), text };
  }
  return { code: 0, text };
}

function expectUsageError(args: string[], flagPattern: RegExp | string) {
  cases++;
  const { code, text } = printError(() => parseCommandLine(args));
  expect(code, `${JSON.stringify(args)} exits 2`).toBe(2);
  const [error, hint, ...rest] = text.split('\n');
  expect(error, JSON.stringify(args)).toMatch(/^error: /);
  expect(error).toMatch(flagPattern);
  expect(hint, `${JSON.stringify(args)} has a hint`).toMatch(/^hint: \S/);
  expect(rest.join('')).toBe('');
}

const commandsWithFlags: CommandSpec[] = [...COMMANDS, SHORTHAND];
const prefix = (command: CommandSpec) => (command.name === '' ? ['do', 'this'] : [command.name]);

describe.each(commandsWithFlags.map((command) => [command.name || '"<prompt>"', command] as const))(
  'oy %s',
  (_name, command) => {
    const flags = [...GLOBAL_FLAGS, ...command.flags].filter(isValueFlag);

    it.each(flags.map((flag) => [flag.name, flag] as const))(
      'every bad value of --%s is a usage error naming the flag, with a hint',
      (_flag, spec) => {
        for (const value of badValues(spec)) {
          expectUsageError([...prefix(command), `--${spec.name}=${value}`], `--${spec.name}`);
          // The separate form too, where a negative number must still reach the flag as its value.
          if (value !== '' && !value.startsWith('--'))
            expectUsageError([...prefix(command), `--${spec.name}`, value], `--${spec.name}`);
        }
        expectUsageError([...prefix(command), `--${spec.name}`], `--${spec.name} needs a value`);
        expectUsageError(
          [...prefix(command), `--${spec.name}`, '--json'],
          `--${spec.name} needs a value, got the flag --json`,
        );
      },
    );

    it.each(flags.map((flag) => [flag.name, flag] as const))(
      'control: the example of --%s parses',
      (_flag, spec) => {
        cases++;
        const example = spec.example.split(' ').map((word) => word.replace(/^'(.*)'$/, '$1'));
        expect(() => parseCommandLine([...prefix(command), ...example])).not.toThrow();
      },
    );

    it('an unknown flag, a switch with a value and a typo are usage errors with hints', () => {
      expectUsageError([...prefix(command), '--no-such-flag'], 'unknown flag --no-such-flag');
      expectUsageError([...prefix(command), '--quiet=yes'], '--quiet takes no value');
      expectUsageError([...prefix(command), '--verbos'], /unknown flag --verbos/);
      const { text } = printError(() => parseCommandLine([...prefix(command), '--verbos']));
      expect(text).toContain('did you mean --verbose?');
    });
  },
);

describe('the table across commands', () => {
  it('a flag of another command is refused, naming its command', () => {
    expectUsageError(['run', '--offline', 'x'], '--offline is not a flag of oy run');
    const { text } = printError(() => parseCommandLine(['run', '--offline', 'x']));
    expect(text).toContain('hint: it belongs to oy audit');
  });

  it('oy help names an unknown command as a usage error only when run (parsing accepts it)', () => {
    cases++;
    expect(parseCommandLine(['help', 'nosuch']).command?.name).toBe('help');
  });

  it('values keep their text: no number coercion, a negative number and - reach the flag', () => {
    cases++;
    const parsed = parseCommandLine(['audit', '--out', '-', '--diff', '0123', '--max-chunks', '7']);
    expect(parsed.values).toMatchObject({ out: '-', diff: '0123', maxChunks: 7 });
    expect(parseCommandLine(['run', '--resume', '2', 'go']).values.resume).toBe('2');
    expect(parseCommandLine(['run', '--mode', 'YOLO', 'go']).values.mode).toBe('auto');
  });

  it('every audit config key with a flag is set by that flag in the config layer', () => {
    for (const [key, name] of Object.entries(AUDIT_CONFIG_FLAGS)) {
      if (name === null) continue;
      cases++;
      const spec = AUDIT_FLAGS.find((flag) => flag.name === name);
      expect(spec?.configKey, name).toBe(`audit.${key}`);
      expect(spec && isValueFlag(spec)).toBe(true);
      const example = spec && isValueFlag(spec) ? spec.example.split(' ') : [];
      const { values } = parseCommandLine([
        'audit',
        ...example.map((word) => word.replace(/^'(.*)'$/, '$1')),
      ]);
      expect(buildFlagLayer(AUDIT_FLAGS, values).audit, name).toHaveProperty(key);
    }
    // And no flag claims a config key the table does not route to it.
    for (const flag of AUDIT_FLAGS.filter((each) => each.configKey !== undefined)) {
      const key = flag.configKey?.replace('audit.', '') as keyof typeof AUDIT_CONFIG_FLAGS;
      expect(AUDIT_CONFIG_FLAGS[key], flag.name).toBe(flag.name);
    }
  });
});
