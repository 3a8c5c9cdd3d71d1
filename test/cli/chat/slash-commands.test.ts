import { describe, expect, it } from 'vitest';
import {
  parseSlashCommand,
  SLASH_COMMANDS,
  suggestSlashCommand,
} from '../../../src/cli/chat/slash-commands.js';

describe('parseSlashCommand', () => {
  it.each([
    ['/help', { kind: 'command', name: 'help', argument: '' }],
    ['/mode plan', { kind: 'command', name: 'mode', argument: 'plan' }],
    ['  /MODEL   openai::gpt-4o  ', { kind: 'command', name: 'model', argument: 'openai::gpt-4o' }],
    ['/ask what does\nthis do?', { kind: 'command', name: 'ask', argument: 'what does\nthis do?' }],
    ['/exit', { kind: 'command', name: 'quit', argument: '' }],
    ['/expand', { kind: 'command', name: 'output', argument: '' }],
    ['/xyz 1', { kind: 'unknown', name: 'xyz' }],
    ['/', { kind: 'unknown', name: '' }],
    ['/sessions', { kind: 'command', name: 'load', argument: '' }],
    ['/resume 2', { kind: 'command', name: 'load', argument: '2' }],
    // An inherited property is no alias.
    ['/constructor', { kind: 'unknown', name: 'constructor' }],
    ['/__proto__', { kind: 'unknown', name: '__proto__' }],
  ])('%j', (input, expected) => {
    expect(parseSlashCommand(input)).toEqual(expected);
  });

  it('leaves ordinary messages alone', () => {
    expect(parseSlashCommand('fix the bug in /src')).toBeUndefined();
  });

  it('knows every command the spec lists', () => {
    expect(SLASH_COMMANDS.map((spec) => spec.name)).toEqual([
      'help',
      'status',
      'model',
      'mode',
      'ask',
      'permissions',
      'todo',
      'compact',
      'tokens',
      'cost',
      'undo',
      'diff',
      'output',
      'clear',
      'save',
      'load',
      'thinking',
      'quit',
    ]);
  });
});

describe('suggestSlashCommand', () => {
  it.each([
    ['mo', 'model'],
    ['he', 'help'],
    ['mdoel', 'model'],
    ['stauts', 'status'],
    ['qiut', 'quit'],
    ['exti', 'quit'],
    ['THINK', 'thinking'],
    ['xyz', undefined],
    ['', undefined],
    ['constructor', undefined],
  ])('%j -> %j', (name, expected) => {
    expect(suggestSlashCommand(name)).toBe(expected);
  });
});
