import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';

// Ways around the third round of Ruby rows (Sinatra's block value and halt, Random held in a field or
// constant, Nokogiri's CSS selectors): a canary that must fire, and look-alikes that must not.
// Names are drawn per run.
const fresh = (): string => `v${randomBytes(4).toString('hex')}`;

function hintLines(lines: string[], category: string): number[] {
  return indexFile({ path: 'app/attack.rb', text: lines.join('\n') })
    .filter((hint) => hint.category === category)
    .map((hint) => hint.line);
}

describe('Sinatra: a block ending on a bare variable', () => {
  it('is shown on the variable, past a comment line and blank lines, not on the end', () => {
    const page = fresh();
    const route = [
      "require 'sinatra'",
      '',
      "get '/greet' do",
      `  ${page} = "<h1>#{params[:name]}</h1>"`,
    ];
    expect(hintLines([...route, `  ${page}`, 'end'], 'xss')).toEqual([5]);
    expect(hintLines([...route, `  ${page} # the page`, '', '  # done', '', 'end'], 'xss')).toEqual(
      [5],
    );
  });

  it('an escaped value, a Rails action and a method outside any route stay unflagged', () => {
    const page = fresh();
    expect(
      hintLines(
        [
          "require 'sinatra'",
          '',
          "get '/greet' do",
          `  ${page} = "<h1>#{Rack::Utils.escape_html(params[:name])}</h1>"`,
          `  ${page}`,
          'end',
        ],
        'xss',
      ),
    ).toEqual([]);
    const action = [
      'class GreetingsController < ApplicationController',
      '  def show',
      `    ${page} = "<h1>#{params[:name]}</h1>"`,
      `    ${page}`,
      '  end',
      'end',
    ];
    expect(hintLines(action, 'xss')).toEqual([]);
    expect(
      hintLines(
        ["require 'sinatra'", '', 'def helper', `  ${page} = params[:q]`, `  ${page}`, 'end'],
        'xss',
      ),
    ).toEqual([]);
  });
});
