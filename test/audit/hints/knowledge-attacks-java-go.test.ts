import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { fresh } from './attack-helpers.js';

// Ways around the Java and Go table rows: each with a canary that must fire (request text reaching
// the sink) or must not (a fixed program, a stored lookup, a comment). Names are drawn per run.

function javaHints(body: string[], category: string): number[] {
  const text = [
    'class Attack {',
    '  void handle(HttpServletRequest request, HttpServletResponse response) throws Exception {',
    ...body.map((line) => `    ${line}`),
    '  }',
    '}',
  ].join('\n');
  return indexFile({ path: 'src/main/java/Attack.java', text })
    .filter((hint) => hint.category === category)
    .map((hint) => hint.line);
}

function goHints(body: string[], category: string): number[] {
  const text = [
    'package main',
    '',
    'func attack(w http.ResponseWriter, r *http.Request) {',
    ...body.map((line) => `\t${line}`),
    '}',
  ].join('\n');
  return indexFile({ path: 'cmd/attack.go', text })
    .filter((hint) => hint.category === category)
    .map((hint) => hint.line);
}

describe('attacks on the Java and Go knowledge rows', () => {
  it('a shell script from the request after thousands of other arguments is still read', () => {
    const padding = Array.from({ length: 2_000 }, () => `"${fresh()}"`).join(', ');
    const lines = javaHints(
      [`new ProcessBuilder("sh", "-c", request.getParameter("${fresh()}"), ${padding}).start();`],
      'command-execution',
    );
    expect(new Set(lines)).toEqual(new Set([3]));
  });

  it('a program the request names is flagged; the same value as a fixed program’s argument is not', () => {
    const [program, key] = [fresh(), fresh()];
    expect(
      javaHints(
        [`new ProcessBuilder(request.getParameter("${key}"), "-v").start();`],
        'command-execution',
      ),
    ).toEqual([3]);
    expect(
      javaHints(
        [`new ProcessBuilder("${program}", request.getParameter("${key}")).start();`],
        'command-execution',
      ),
    ).toEqual([]);
  });

  it('Paths.get reads its names, but a keyed lookup still answers a stored value, not the key', () => {
    const [name, key] = [fresh(), fresh()];
    expect(
      javaHints(
        [
          `String ${name} = settings.get(request.getParameter("${key}"));`,
          `Files.readString(Path.of(${name}));`,
        ],
        'path-traversal',
      ),
    ).toEqual([]);
    expect(
      javaHints(
        [
          `String ${name} = request.getParameter("${key}");`,
          `Files.readString(Paths.get("/srv", ${name}));`,
        ],
        'path-traversal',
      ),
    ).toEqual([4]);
  });

  it('a framework-supplied parameter of a Spring mapping is not request input', () => {
    const name = fresh();
    const text = [
      '@RestController',
      'class Attack {',
      '  @GetMapping("/attack")',
      `  public String attack(Locale ${name}, HttpServletRequest request) throws Exception {`,
      `    return Files.readString(Path.of("/srv/" + ${name}.getLanguage()));`,
      '  }',
      '}',
    ].join('\n');
    const hints = indexFile({ path: 'src/main/java/Attack.java', text });
    expect(hints.filter((h) => h.category === 'path-traversal')).toEqual([]);
  });

  it('an entity switch named in a comment or a string is not a parser setting', () => {
    const text = [
      'class Parser {',
      '  // never call setFeature("http://xml.org/sax/features/external-general-entities", true)',
      `  String doc = ".setExpandEntityReferences(true) ${fresh()}";`,
      '}',
    ].join('\n');
    expect(
      indexFile({ path: 'src/main/java/Parser.java', text }).filter((h) => h.category === 'xxe'),
    ).toEqual([]);
  });

  it('a Go shell slice built from the request and spread into exec.Command runs the request text', () => {
    const [args, key] = [fresh(), fresh()];
    const lines = goHints(
      [
        `${args} := []string{"bash", "-c"}`,
        `${args} = append(${args}, "echo "+r.FormValue("${key}"))`,
        `exec.Command(${args}[0], ${args}[1:]...).Run()`,
      ],
      'command-execution',
    );
    expect(lines).toEqual([6]);
  });

  it('filepath.IsLocal confines only the name it tests', () => {
    const [checked, other] = [fresh(), fresh()];
    const lines = goHints(
      [
        `${checked} := r.PathValue("a")`,
        `${other} := r.PathValue("b")`,
        `if !filepath.IsLocal(${checked}) {`,
        '\treturn',
        '}',
        `os.ReadFile(filepath.Join("/srv", ${checked}, ${other}))`,
      ],
      'path-traversal',
    );
    expect(lines).toEqual([9]);
  });
});
