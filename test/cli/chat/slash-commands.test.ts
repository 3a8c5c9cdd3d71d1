import { describe, expect, it } from 'vitest';
import { parseSlashCommand, SLASH_COMMANDS } from '../../../src/cli/chat/slash-commands.js';

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
      'quit',
    ]);
  });
});
