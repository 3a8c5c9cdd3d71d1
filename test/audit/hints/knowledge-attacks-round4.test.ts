import { describe, expect, it } from 'vitest';
import { MaskedText } from '../../../src/audit/hints/flow/masked-text.js';
import { sinkArgumentSpans } from '../../../src/audit/hints/flow/sink-argument.js';
import { fresh, hintLines } from './attack-helpers.js';

// Round 4 of issue 30: Ruby casts called without parentheses, a guard written after the sink (a
// statement modifier), and Sinatra's `halt … if cond`. Each case has a canary that must fire (request
// text reaching the sink) or must not. Names and parameter keys are drawn afresh per run.

const sinatra = (...body: string[]): string[] => [
  "require 'sinatra'",
  "require 'nokogiri'",
  '',
  `ALLOWED = %w[nav main].freeze`,
  '',
  `get '/${fresh()}' do`,
  ...body.map((line) => `  ${line}`),
  'end',
];

const xpathLines = (...body: string[]): number[] =>
  hintLines('app/routes.rb', sinatra(...body), 'xpath-injection');

describe('a Ruby cast called without parentheses cleans; a look-alike does not', () => {
  it.each(['to_i', 'to_f'])('params[:k].%s inside the query, and through a variable', (cast) => {
    const key = fresh();
    const name = fresh();
    expect(xpathLines(`doc.xpath("//li[#{params[:${key}].${cast}}]").to_s`)).toEqual([]);
    expect(
      xpathLines(`${name} = params[:${key}][:${fresh()}].${cast}`, `doc.xpath("//li[#{${name}}]")`),
    ).toEqual([]);
  });

  it.each(['to_s', 'to_sym', 'strip', 'to_i_or_name', 'to_str'])(
    'params[:k].%s keeps the request text',
    (method) => {
      const key = fresh();
      const name = fresh();
      expect(xpathLines(`doc.xpath("//li[@k='#{params[:${key}].${method}}']")`)).toEqual([7]);
      expect(
        xpathLines(`${name} = params[:${key}].${method}`, `doc.xpath("//li[@k='#{${name}}']")`),
      ).toEqual([8]);
    },
  );
});

describe('a guard written after the sink on its line', () => {
  it('an allow-list or a whole-word test after `if` (or a failed `!~` after `unless`) cleans', () => {
    const q = fresh();
    expect(xpathLines(`${q} = params[:q]`, `doc.css(${q}).text if ALLOWED.include?(${q})`)).toEqual(
      [],
    );
    expect(
      xpathLines(`${q} = params[:q]`, `doc.css(${q}).text unless ${q} !~ /\\A\\w+\\z/`),
    ).toEqual([]);
    expect(
      xpathLines(`${q} = params[:q]`, `doc.xpath("//a[@id='#{${q}}']") if ${q} =~ /\\A\\d+\\z/`),
    ).toEqual([]);
  });

  it('a condition that does not hold the value to the list stays flagged', () => {
    const q = fresh();
    const other = fresh();
    const read = `${q} = params[:q]`;
    // The inverse: the query runs exactly when the value is not a word.
    expect(xpathLines(read, `doc.css(${q}).text unless ${q} =~ /\\A\\w+\\z/`)).toEqual([8]);
    expect(xpathLines(read, `doc.css(${q}).text if ${q} !~ /\\A\\w+\\z/`)).toEqual([8]);
    expect(xpathLines(read, `doc.css(${q}).text if ALLOWED.include?(${q}) || true`)).toEqual([8]);
    expect(xpathLines(read, `doc.css(${q}).text if ALLOWED.include?(${other})`)).toEqual([8]);
    expect(xpathLines(read, `doc.css(${q}).text if ${q}.present?`)).toEqual([8]);
    // A test that allows more than letters and digits proves nothing.
    expect(xpathLines(read, `doc.css(${q}).text if ${q} =~ /\\A.+\\z/`)).toEqual([8]);
  });

  it('a path guard after `unless` cleans; the same test after `if` does not', () => {
    const name = fresh();
    const lines = (modifier: string): number[] =>
      hintLines(
        'app/files.rb',
        sinatra(
          `${name} = params[:${fresh()}]`,
          `File.read(File.join('files', ${name})) ${modifier} ${name}.include?('..')`,
        ),
        'path-traversal',
      );
    expect(lines('unless')).toEqual([]);
    expect(lines('if')).toEqual([8]);
  });
});

describe("Sinatra's halt with a trailing condition", () => {
  const xss = (...body: string[]): number[] => hintLines('app/app.rb', sinatra(...body), 'xss');

  it('constant text is no page, whatever the condition reads', () => {
    const message = fresh();
    expect(
      xss(`${message} = '${fresh()}'`, `halt 400, ${message} if params[:q].nil?`, "'ok'"),
    ).toEqual([]);
    expect(
      xss(`halt 422, '${fresh()}' unless params[:${fresh()}] =~ /\\A\\w+\\z/`, "'ok'"),
    ).toEqual([]);
  });

  it('request-built HTML before the condition stays a page', () => {
    const page = fresh();
    expect(xss(`halt 400, "<p>#{params[:${fresh()}]}</p>" if params[:q]`, "'ok'")).toEqual([7]);
    expect(
      xss(
        `${page} = "<b>#{params[:${fresh()}]}</b>"`,
        `halt(400, ${page}) if ${page}.size > 3`,
        "'ok'",
      ),
    ).toContain(8);
  });

  it("Python's conditional expression keeps both values", () => {
    const name = fresh();
    const lines = [
      'from flask import Flask, request',
      'app = Flask(__name__)',
      `@app.route('/${fresh()}')`,
      'def view():',
      `    ${name} = request.args.get('${fresh()}')`,
      `    return "none" if ${name} is None else f"<p>{${name}}</p>"`,
    ];
    expect(hintLines('app/views.py', lines, 'xss')).toEqual([6]);
  });
});

describe('hostile shapes stay bounded', () => {
  it('a line of many `if` keywords after one with an `else` is looked at once, up to the reach', () => {
    const code = `halt 400, body ${'if x '.repeat(100)}else y ${'if z '.repeat(50_000)}\n`;
    const masked = new MaskedText(code);
    const hit = code.indexOf('body');
    const spans = sinkArgumentSpans(masked, hit, hit, 'rest');
    expect(spans).toHaveLength(1);
    expect(spans[0]?.start).toBe(hit);
    // A conditional expression: read on to the reach, not cut at a later keyword nor the 250 kB line.
    expect(spans[0]?.end).toBe(hit + 3_000);
  });

  it('a modifier ends the argument at its keyword', () => {
    const code = `halt 400, body if cond_a and cond_b\n`;
    const masked = new MaskedText(code);
    const hit = code.indexOf('body');
    const [span] = sinkArgumentSpans(masked, hit, hit, 'rest');
    expect(code.slice(span?.start, span?.end).trim()).toBe('body');
  });

  it('a long Ruby route of modifiers and casts still reports the request-built sink', () => {
    const q = fresh();
    const filler = Array.from(
      { length: 300 },
      (_, i) => `x${i} = params[:k${i}].to_i if x${i - 1}`,
    );
    const lines = xpathLines(`${q} = params[:q]`, ...filler, `doc.css(${q}).text if ${q}.present?`);
    expect(lines).toEqual([308]);
  });
});

describe('a Java File or Path held in a variable and cut to its leaf', () => {
  const servlet = (...body: string[]): string[] => [
    'import java.io.*;',
    'import java.nio.file.*;',
    'import javax.servlet.http.*;',
    'public class Files extends HttpServlet {',
    '  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {',
    `    String name = request.getParameter("${fresh()}");`,
    ...body.map((line) => `    ${line}`),
    '  }',
    '}',
  ];
  const lines = (...body: string[]): number[] =>
    hintLines('src/main/java/Files.java', servlet(...body), 'path-traversal');

  it('the leaf under a fixed folder opens nothing outside it', () => {
    const f = fresh();
    const target = fresh();
    // The File made from the name is held only for its leaf: it opens nothing either.
    expect(
      lines(
        `File ${f} = new File(name);`,
        `File ${target} = new File("/srv/files", ${f}.getName());`,
        `new FileInputStream(${target}).close();`,
      ),
    ).toEqual([]);
    expect(
      lines(
        `Path ${f} = Paths.get(name);`,
        `Files.readString(Paths.get("/srv/files").resolve(${f}.getFileName().toString()));`,
      ),
    ).toEqual([]);
  });

  it('the whole path, or a getName of another type, stays flagged', () => {
    const f = fresh();
    expect(
      lines(
        `File ${f} = new File(name);`,
        `new FileInputStream(new File("/srv", ${f}.getPath()));`,
      ),
    ).toEqual([7, 8]);
    // Held for its leaf and also opened whole, or handed on: the File is a path that is used.
    expect(
      lines(
        `File ${f} = new File(name);`,
        `String leaf = ${f}.getName();`,
        `new FileInputStream(${f}).close();`,
      ),
    ).toEqual([7, 9]);
    expect(
      lines(`File ${f} = new File(name);`, `String leaf = ${f}.getName();`, `${f}.delete();`),
    ).toEqual([7]);
    const part = fresh();
    expect(
      hintLines(
        'src/main/java/Up.java',
        [
          'import java.io.*;',
          'import org.springframework.web.multipart.MultipartFile;',
          '@RestController',
          'public class Up {',
          '  @PostMapping("/up")',
          `  public void up(@RequestParam("f") MultipartFile ${part}) throws IOException {`,
          `    new FileOutputStream(new File("/srv", ${part}.getOriginalFilename())).close();`,
          '  }',
          '}',
        ],
        'path-traversal',
      ),
    ).toEqual([7]);
  });
});

describe('a Laravel route returning a file read (sent as text/html by Router::toResponse)', () => {
  const route = (...body: string[]): number[] =>
    hintLines(
      'routes/web.php',
      [
        '<?php',
        'use Illuminate\\Http\\Request;',
        'use Illuminate\\Support\\Facades\\Route;',
        `Route::get('/${fresh()}/{name}', function (Request $request, $name) {`,
        ...body.map((line) => `    ${line}`),
        '});',
      ],
      'xss',
    );

  it('a stored file picked by the request is the file’s text, not the request’s', () => {
    expect(
      route(`return file_get_contents(resource_path('p/' . basename($name) . '.html'));`),
    ).toEqual([]);
    expect(
      route(`return File::get(storage_path('${fresh()}/' . basename($request->input('p'))));`),
    ).toEqual([]);
  });

  it('the request body, or request text around the file, is a page the client writes', () => {
    expect(route("return file_get_contents('php://input');")).toEqual([5]);
    expect(
      route(`return '<h1>' . $name . '</h1>' . file_get_contents(resource_path('x.html'));`),
    ).toEqual([5]);
    const stream = fresh();
    expect(
      route(`$${stream} = fopen('php://input', 'rb');`, `return stream_get_contents($${stream});`),
    ).toEqual([6]);
  });
});
