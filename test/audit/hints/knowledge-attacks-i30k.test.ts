import { describe, expect, it } from 'vitest';
import { fresh, hintLines } from './attack-helpers.js';

// Ways around the Java, Go and Ruby rows added for issue 30's remaining gaps: each with a canary
// that must fire (request text reaching the sink) or must not (a fixed program, a safe generator).

function javaHints(body: string[], category: string): number[] {
  return hintLines(
    'src/main/java/Attack.java',
    [
      'class Attack {',
      '  void handle(HttpServletRequest request, HttpServletResponse response) throws Exception {',
      ...body.map((line) => `    ${line}`),
      '  }',
      '}',
    ],
    category,
  );
}

describe('Runtime.exec of an array', () => {
  it('a shell script slot overwritten with request text after a constant array is flagged', () => {
    const [key, name] = [fresh(), fresh()];
    expect(
      javaHints(
        [
          `String[] ${name} = {"sh", "-c", "uptime"};`,
          `${name}[2] = "ls " + request.getParameter("${key}");`,
          `Runtime.getRuntime().exec(${name});`,
        ],
        'command-execution',
      ),
    ).toEqual([5]);
  });

  it('a shell and flag chosen in branches still read the script; a fixed program’s argument does not', () => {
    const key = fresh();
    expect(
      javaHints(
        [
          'String shell = windows ? "cmd.exe" : "sh";',
          'String flag = windows ? "/c" : "-c";',
          `Runtime.getRuntime().exec(new String[] {shell, flag, "dir " + request.getParameter("${key}")});`,
        ],
        'command-execution',
      ),
    ).toEqual([5]);
    expect(
      javaHints(
        [`Runtime.getRuntime().exec(new String[] {"${fresh()}", request.getParameter("${key}")});`],
        'command-execution',
      ),
    ).toEqual([]);
  });

  it('a command string, and a program the request names, stay flagged', () => {
    const key = fresh();
    expect(
      javaHints(
        [`Runtime.getRuntime().exec("${fresh()} " + request.getParameter("${key}"));`],
        'command-execution',
      ),
    ).toEqual([3]);
    expect(
      javaHints(
        [`Runtime.getRuntime().exec(new String[] {request.getParameter("${key}"), "-v"});`],
        'command-execution',
      ),
    ).toEqual([3]);
  });
});

describe('a weak generator held in a field', () => {
  const useAt = (field: string, declaration: string[]): number[] =>
    hintLines(
      'src/main/java/Attack.java',
      [
        'class Attack {',
        ...declaration,
        '',
        '',
        '',
        '  String draw() {',
        `    String resetToken = Long.toHexString(${field}.nextLong());`,
        '    return resetToken;',
        '  }',
        '}',
      ],
      'weak-crypto',
    ).filter((line) => line > declaration.length + 1);

  it('a use of a Random field is flagged; a SecureRandom field of the same name is not', () => {
    const field = fresh();
    expect(useAt(field, [`  private static final Random ${field} = new Random();`])).toEqual([7]);
    expect(
      useAt(field, [`  private static final SecureRandom ${field} = new SecureRandom();`]),
    ).toEqual([]);
  });

  it('an assignment in a comment or a string does not make a field weak', () => {
    const field = fresh();
    expect(
      useAt(field, [
        `  // ${field} = new Random() was too weak`,
        `  private static final String NOTE = "${field} = new Random()";`,
        `  private static final SecureRandom ${field} = new SecureRandom();`,
      ]),
    ).toEqual([]);
  });

  it('a field whose name ends another weak one’s is judged by its own assignment', () => {
    const field = fresh();
    expect(
      useAt(field, [
        `  private static final Random old${field} = new Random();`,
        `  private static final SecureRandom ${field} = new SecureRandom();`,
      ]),
    ).toEqual([]);
  });
});

describe('Servlet Part.write', () => {
  it('a writer named like a part is not a part; a part named like a writer is', () => {
    const [name, key] = [fresh(), fresh()];
    expect(
      javaHints(
        [
          `// Part ${name};`,
          `String label = "Part ${name}";`,
          `PrintWriter ${name} = response.getWriter();`,
          `${name}.write(request.getParameter("${key}"));`,
        ],
        'path-traversal',
      ),
    ).toEqual([]);
    expect(
      javaHints(
        [
          `Part ${name} = request.getPart("${key}");`,
          `${name}.write(${name}.getSubmittedFileName());`,
        ],
        'path-traversal',
      ),
    ).toEqual([4]);
  });

  it('a method named after the type is no declaration of the receiver', () => {
    const key = fresh();
    expect(
      javaHints(
        [
          'Writer out = response.getWriter();',
          `out.write(request.getParameter("${key}"));`,
          '}',
          'Part out() { return null; }',
          'void other() {',
        ],
        'path-traversal',
      ),
    ).toEqual([]);
  });
});

describe('Go text/template into a response', () => {
  const goFile = (imports: string[], body: string[]): number[] =>
    hintLines(
      'cmd/attack.go',
      [
        'package main',
        '',
        'import (',
        ...imports.map((line) => `\t${line}`),
        ')',
        '',
        'func attack(w http.ResponseWriter, r *http.Request) {',
        ...body.map((line) => `\t${line}`),
        '}',
      ],
      'xss',
    );

  it('the request in a text template’s data is flagged; in an html/template’s it is not', () => {
    const [key, tmpl] = [fresh(), fresh()];
    const body = [`${tmpl}.Execute(w, r.FormValue("${key}"))`];
    expect(goFile(['"net/http"', '"text/template"'], body)).toEqual([9]);
    expect(goFile(['"net/http"', '"html/template"'], body)).toEqual([]);
  });

  it('a buffer is no response, even when a comment calls it a ResponseWriter', () => {
    const [key, buffer] = [fresh(), fresh()];
    expect(
      goFile(
        ['"bytes"', '"text/template"'],
        [
          `// ${buffer} http.ResponseWriter`,
          `var ${buffer} bytes.Buffer`,
          `mail.Execute(${buffer}, r.FormValue("${key}"))`,
        ],
      ),
    ).toEqual([]);
  });
});

describe('a function passed to a Go XPath call', () => {
  const handler = (body: string[]): number[] =>
    hintLines(
      'cmd/attack.go',
      [
        'package main',
        '',
        'func attack(w http.ResponseWriter, r *http.Request) {',
        ...body.map((line) => `\t${line}`),
        '}',
      ],
      'xpath-injection',
    );

  it('a callback that reads the request is not the expression; a literal called in place is', () => {
    const key = fresh();
    expect(
      handler([
        `xmlquery.FindEach(doc, "//order", func(i int, n *xmlquery.Node) { fmt.Fprint(w, r.FormValue("${key}")) })`,
      ]),
    ).toEqual([]);
    expect(
      handler([
        `xmlquery.Find(doc, func() string { return "//a[@id='" + r.FormValue("${key}") + "']" }())`,
      ]),
    ).toEqual([4]);
  });
});
