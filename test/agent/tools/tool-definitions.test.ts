import { describe, expect, it } from 'vitest';
import { ALL_TOOLS, offeredTools } from '../../../src/agent/tools/all-tools.js';

/** Tool names, descriptions and argument schemas are a public interface (README.md "Tools"): what the model sees. */
describe('the tool definitions', () => {
  it('are the ten tools of README.md "Tools", in order', () => {
    expect(ALL_TOOLS.map((tool) => tool.name)).toEqual([
      'list',
      'read',
      'search',
      'write',
      'edit',
      'replace',
      'bash',
      'webfetch',
      'todo',
      'ask',
    ]);
  });

  it('give each tool an object schema with the argument names README.md lists', () => {
    const argumentsOf = Object.fromEntries(
      ALL_TOOLS.map((tool) => [
        tool.name,
        Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>),
      ]),
    );
    expect(argumentsOf).toEqual({
      list: ['path', 'depth', 'limit'],
      read: ['path', 'offset', 'limit'],
      search: ['pattern', 'path', 'mode', 'glob', 'limit'],
      write: ['path', 'content'],
      edit: ['path', 'old_string', 'new_string', 'replace_all'],
      replace: ['pattern', 'replacement', 'path', 'mode', 'glob'],
      bash: ['command', 'timeout_seconds'],
      webfetch: ['url', 'method', 'headers', 'timeout_seconds'],
      todo: ['todos', 'persist'],
      ask: ['question', 'choices'],
    });
    for (const tool of ALL_TOOLS) expect(tool.inputSchema.type).toBe('object');
  });

  it('offer no write tool and no shell in plan mode, and ask only when someone can answer', () => {
    const names = (mode: Parameters<typeof offeredTools>[0], isInteractive: boolean) =>
      offeredTools(mode, isInteractive).map((tool) => tool.name);
    expect(names('plan', false)).toEqual(['list', 'read', 'search', 'webfetch', 'todo']);
    expect(names('plan', true)).toContain('ask');
    expect(names('auto', false)).not.toContain('ask');
    expect(names('ask', false)).toHaveLength(9);
  });

  it('match the snapshot the model sees', () => {
    expect(
      ALL_TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    ).toMatchSnapshot();
  });
});
