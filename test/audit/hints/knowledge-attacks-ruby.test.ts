import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';

// Ways around the Ruby table rows: each with a canary that must fire (request text reaching the
// sink) or must not (a fixed program, a block passed along, a guard, a route-looking client call).
// Names are drawn per run.
const fresh = (): string => `v${randomBytes(4).toString('hex')}`;

function hintLines(lines: string[], category: string): number[] {
  return indexFile({ path: 'app/attack.rb', text: lines.join('\n') })
    .filter((hint) => hint.category === category)
    .map((hint) => hint.line);
}

describe('Ruby knowledge rows against attacks', () => {
  it('a Sinatra capture of any name reaches send_file; the same capture after a prefix check does not', () => {
    const name = fresh();
    const route = ["require 'sinatra'", '', `get '/f/:${name}' do |${name}|`];
    expect(
      hintLines([...route, `  send_file File.join(ROOT, ${name})`, 'end'], 'path-traversal'),
    ).toEqual([4]);
    expect(
      hintLines(
        [
          ...route,
          `  path = File.expand_path(${name}, ROOT)`,
          "  halt 403 unless path.start_with?(ROOT + '/')",
          '  send_file path',
          'end',
        ],
        'path-traversal',
      ),
    ).toEqual([]);
  });

  it('an HTTP client block that looks like a route binds nothing from the request', () => {
    const name = fresh();
    const lines = [
      'def fetch',
      `  conn.get '/f' do |${name}|`,
      `    File.read(${name})`,
      '  end',
      'end',
    ];
    expect(hintLines(lines, 'path-traversal')).toEqual([]);
  });

  it('a shell hidden in a splatted list or a paren-less call is read; a block passed along is not an argument', () => {
    const list = fresh();
    const host = fresh();
    const body = (...lines: string[]): string[] => [
      'def show',
      `  ${host} = params[:h]`,
      ...lines.map((l) => `  ${l}`),
      'end',
    ];
    expect(
      hintLines(
        body(`${list} = ['sh', '-c', "dig #{${host}}"]`, `system(*${list})`),
        'command-execution',
      ),
    ).toEqual([4]);
    expect(hintLines(body(`exec 'sh', '-c', "dig #{${host}}"`), 'command-execution')).toEqual([3]);
    expect(hintLines(body(`IO.popen(['dig', ${host}], &:read)`), 'command-execution')).toEqual([]);
    expect(
      hintLines(body(`system({ 'A' => ${host} }, 'dig', 'example.com')`), 'command-execution'),
    ).toEqual([]);
  });
});
