import { describe, expect, it } from 'vitest';
import { fresh, hintLines } from './attack-helpers.js';

// Ways around the Ruby table rows: each with a canary that must fire (request text reaching the
// sink) or must not (a fixed program, a block passed along, a guard, a route-looking client call).
// Names are drawn per run.

/** The hint lines of a Ruby file. */
const rubyHintLines = (lines: string[], category: string): number[] =>
  hintLines('app/attack.rb', lines, category);

describe('Ruby knowledge rows against attacks', () => {
  it('a Sinatra capture of any name reaches send_file; the same capture after a prefix check does not', () => {
    const name = fresh();
    const route = ["require 'sinatra'", '', `get '/f/:${name}' do |${name}|`];
    expect(
      rubyHintLines([...route, `  send_file File.join(ROOT, ${name})`, 'end'], 'path-traversal'),
    ).toEqual([4]);
    expect(
      rubyHintLines(
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
    expect(rubyHintLines(lines, 'path-traversal')).toEqual([]);
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
      rubyHintLines(
        body(`${list} = ['sh', '-c', "dig #{${host}}"]`, `system(*${list})`),
        'command-execution',
      ),
    ).toEqual([4]);
    expect(rubyHintLines(body(`exec 'sh', '-c', "dig #{${host}}"`), 'command-execution')).toEqual([
      3,
    ]);
    expect(rubyHintLines(body(`IO.popen(['dig', ${host}], &:read)`), 'command-execution')).toEqual(
      [],
    );
    expect(
      rubyHintLines(body(`system({ 'A' => ${host} }, 'dig', 'example.com')`), 'command-execution'),
    ).toEqual([]);
  });
});

// The third round of Ruby rows: Sinatra's block value and halt, Random held in a field or constant,
// Nokogiri's CSS selectors.
describe('Sinatra: a block ending on a bare variable', () => {
  it('is shown on the variable, past a comment line and blank lines, not on the end', () => {
    const page = fresh();
    const route = [
      "require 'sinatra'",
      '',
      "get '/greet' do",
      `  ${page} = "<h1>#{params[:name]}</h1>"`,
    ];
    expect(rubyHintLines([...route, `  ${page}`, 'end'], 'xss')).toEqual([5]);
    expect(
      rubyHintLines([...route, `  ${page} # the page`, '', '  # done', '', 'end'], 'xss'),
    ).toEqual([5]);
  });

  it('an escaped value, a Rails action and a method outside any route stay unflagged', () => {
    const page = fresh();
    expect(
      rubyHintLines(
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
    expect(rubyHintLines(action, 'xss')).toEqual([]);
    expect(
      rubyHintLines(
        ["require 'sinatra'", '', 'def helper', `  ${page} = params[:q]`, `  ${page}`, 'end'],
        'xss',
      ),
    ).toEqual([]);
  });
});

describe('Sinatra: halt', () => {
  const route = (line: string): string[] => [
    "require 'sinatra'",
    '',
    "get '/u/:id' do",
    line,
    "  'ok'",
    'end',
  ];

  it('a status alone, constant text or a template before a condition on the request is no page', () => {
    const name = fresh();
    for (const line of [
      `  halt 404 unless params[:${name}]`,
      `  halt(403) if params[:${name}] == 'root'`,
      `  halt 404, 'Not found' unless params[:${name}]`,
      `  halt 400, "Bad ${name}" if params[:${name}].to_s.empty?`,
      `  halt erb(:missing) unless params[:${name}]`,
    ])
      expect(rubyHintLines(route(line), 'xss'), line).toEqual([]);
  });

  it('a body built from the request is a page, with or without a condition or a status', () => {
    const name = fresh();
    for (const line of [
      `  halt 400, "<p>#{params[:${name}]}</p>"`,
      `  halt 400, "<p>#{params[:${name}]}</p>" if params[:${name}].size > 9`,
      `  halt "<p>#{params[:${name}]}</p>" unless ok`,
      `  halt params[:${name}]`,
    ])
      expect(rubyHintLines(route(line), 'xss'), line).toEqual([4]);
  });

  it('a hostile halt line (thousands of digits, quotes and open brackets) is read in bounded work', () => {
    const line = `  halt ${'4'.repeat(20000)}, ${"'".repeat(5000)}${'('.repeat(5000)} unless x`;
    expect(rubyHintLines(route(line), 'xss').length).toBeLessThanOrEqual(1);
  });
});

describe('Ruby: a Random held in a field or constant', () => {
  it('is weak when made from Random.new (=, ||=, with a seed), not from SecureRandom or under another name', () => {
    const rng = fresh();
    const use = (made: string, drawn: string): number[] =>
      rubyHintLines(
        [
          'class Tokens',
          '  def initialize',
          `    ${made}`,
          '  end',
          '',
          '  def api_token',
          `    ${drawn}`,
          '  end',
          'end',
        ],
        'weak-crypto',
      );
    expect(use(`@${rng} = Random.new`, `@${rng}.rand(2**128).to_s(16)`)).toEqual([7]);
    expect(use(`@${rng} ||= Random.new(42)`, `@${rng}.bytes(16).unpack1('H*')`)).toEqual([7]);
    expect(use(`@${rng} = SecureRandom`, `@${rng}.random_number(2**128).to_s(16)`)).toEqual([]);
    // A local of the same name is another variable; making a generator names no secret.
    expect(use(`@${rng} = Random.new`, `${rng}.rand(2**128).to_s(16)`)).toEqual([]);
  });

  it('a constant drawn from for a key far from where it is made is flagged; a hostile chain stays bounded', () => {
    const rng = fresh().toUpperCase();
    const lines = [
      `${rng} = Random.new`,
      ...Array<string>(30).fill(''),
      `api_key = ${rng}.bytes(24).unpack1('H*')`,
    ];
    expect(rubyHintLines(lines, 'weak-crypto')).toEqual([32]);
    const hostile = [
      `${rng} = Random.new`,
      `token = ${'a.'.repeat(20000)}${rng}.rand(9)${'('.repeat(3000)}`,
    ];
    expect(rubyHintLines(hostile, 'weak-crypto').length).toBeLessThanOrEqual(1);
  });
});

describe('Nokogiri: css and at_css compile their selector to XPath', () => {
  const file = (line: string, header = "require 'nokogiri'"): string[] => [
    header,
    '',
    'def pick(doc, params)',
    line,
    'end',
  ];

  it('a selector built from the request is an XPath query the request writes', () => {
    const name = fresh();
    for (const line of [
      `  doc.css("a.#{params[:${name}]}")`,
      `  doc.at_css("user[name='" + params[:${name}] + "']")&.text`,
      `  doc.css params[:${name}]`,
    ])
      expect(rubyHintLines(file(line), 'xpath-injection'), line).toEqual([4]);
  });

  it('a constant, an allow-list lookup, a cast, css_path and another library stay unflagged', () => {
    const name = fresh();
    for (const line of [
      "  doc.css('a[href]').first(params[:limit].to_i)",
      `  doc.css(SELECTORS.fetch(params[:${name}], 'a'))`,
      `  doc.at_css("li:nth-child(#{Integer(params[:${name}])})")`,
      `  node.css_path + params[:${name}].to_s`,
      `  doc.attributes(params[:${name}])`,
    ])
      expect(rubyHintLines(file(line), 'xpath-injection'), line).toEqual([]);
    // Without Nokogiri, `css` is some other library's (a stylesheet builder, a mailer's inliner).
    expect(
      rubyHintLines(file(`  page.css(params[:${name}])`, "require 'premailer'"), 'xpath-injection'),
    ).toEqual([]);
  });

  it('a hostile selector line (deep brackets, thousands of interpolations) is read in bounded work', () => {
    const line = `  doc.css("${'#{params[:q]}['.repeat(3000)}${'('.repeat(3000)}")`;
    expect(rubyHintLines(file(line), 'xpath-injection').length).toBeLessThanOrEqual(1);
  });
});
