import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { JAVA_GO_RUBY_DIFFERENCES } from './baseline-differences-java-go-ruby.js';
import { JS_PHP_GAP_DIFFERENCES } from './baseline-differences-js-php-gaps.js';
import { ROUND3_PHP_JAVA_DIFFERENCES } from './baseline-differences-i30u.js';
import { RUBY_ROUND3_DIFFERENCES } from './baseline-differences-ruby-round3.js';
import { ROUND4_DIFFERENCES } from './baseline-differences-round4.js';
import { readLabelledFixtures } from './labelled-fixtures.js';

/** One hint as the baseline keeps it. */
interface BaselineHint {
  path: string;
  line: number;
  category: string;
  severity: string;
}

/** A difference from the baseline that was looked at and argued. */
export interface ExpectedDifference {
  path: string;
  line: number;
  category: string;
  /** `added`: a new hint; `removed`: a baseline hint gone; `severity`: same place, new severity. */
  change: 'added' | 'removed' | 'severity';
  severity: string;
  reason: string;
}

// The hints of commit 5c9ac97 (before the rules became per-category tables) on every fixture.
const BASELINE: BaselineHint[] = JSON.parse(
  readFileSync(new URL('../../fixtures/hint-baseline/hints-5c9ac97.json', import.meta.url), 'utf8'),
) as BaselineHint[];

/** Every difference from the baseline, each with its one-line reason. */
const EXPECTED_DIFFERENCES: readonly ExpectedDifference[] = [
  ...JAVA_GO_RUBY_DIFFERENCES,
  ...JS_PHP_GAP_DIFFERENCES,
  ...RUBY_ROUND3_DIFFERENCES,
  ...ROUND3_PHP_JAVA_DIFFERENCES,
  ...ROUND4_DIFFERENCES,
  {
    path: 'hint-corpus/template-injection/py-vuln-jinja-from-string.py',
    line: 12,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'A Flask view returns a page rendered from a template the request supplied: its HTML is the client’s.',
  },
  {
    path: 'hint-corpus/command-execution/py-vuln-shell-arg-list.py',
    line: 20,
    category: 'command-execution',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: an argument list that starts a shell with its script flag (chosen in branches) runs the request text as a script.',
  },
  {
    path: 'hint-corpus/path-traversal/py-vuln-codecs-open.py',
    line: 12,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: codecs.open is a file API like open, now in the Python file-API table.',
  },
  {
    path: 'hint-corpus/path-traversal/py-vuln-pathlib-read-text.py',
    line: 12,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: a pathlib join read with read_text, judged on the Path it is called on.',
  },
  {
    path: 'hint-corpus/trust-boundary/py-vuln-session-key.py',
    line: 10,
    category: 'trust-boundary',
    change: 'added',
    severity: 'low',
    reason:
      'New fixture: a session key named by the request is a session write the request controls.',
  },
  {
    path: 'hint-corpus/xpath-injection/py-vuln-lxml-compiled.py',
    line: 11,
    category: 'xpath-injection',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: lxml.etree.XPath compiles the query as .xpath() does.',
  },
  {
    path: 'hint-corpus/xxe/py-vuln-lxml-parser-wrapped.py',
    line: 11,
    category: 'xxe',
    change: 'added',
    severity: 'high',
    reason:
      'no_network=False lets lxml fetch entities over the network; it was in the pattern but not in the keywords, so its line was never tested.',
  },
  {
    path: 'hint-corpus/xxe/py-vuln-sax-external-entities.py',
    line: 13,
    category: 'xxe',
    change: 'added',
    severity: 'high',
    reason:
      'New fixture: xml.sax’s feature_external_ges switched on, which minidom inherits with that parser.',
  },
  {
    path: 'hint-corpus/path-traversal/js-vuln-exists-probe.js',
    line: 8,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: fs.existsSync probes a path the request names, now in the Node.js fs table.',
  },
  {
    path: 'hint-corpus/command-execution/js-vuln-spawn-program.js',
    line: 8,
    category: 'command-execution',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: spawn starts the program the request body names, now in the Node.js process table.',
  },
  {
    path: 'hint-corpus/ldap-injection/js-vuln-ldapjs-search.js',
    line: 9,
    category: 'ldap-injection',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: ldapjs search whose filter, in the options object, is built from the query.',
  },
  {
    path: 'hint-corpus/ldap-injection/js-vuln-ldapjs.js',
    line: 7,
    category: 'ldap-injection',
    change: 'added',
    severity: 'medium',
    reason:
      'Found now: the ldapjs filter sits in the options object, which the LDAP rule now reads for ldapjs and ldapts.',
  },
  {
    path: 'hint-corpus/path-traversal/js-vuln-fs-promises-bare.js',
    line: 7,
    category: 'path-traversal',
    change: 'added',
    severity: 'high',
    reason: 'New fixture: fs/promises stat called by its bare name in a file that imports it.',
  },
  {
    path: 'hint-corpus/path-traversal/js-vuln-fs-promises-bare.js',
    line: 12,
    category: 'path-traversal',
    change: 'added',
    severity: 'high',
    reason: 'New fixture: fs/promises rm called by its bare name in a file that imports it.',
  },
  {
    path: 'hint-corpus/path-traversal/js-vuln-koa-send.js',
    line: 7,
    category: 'path-traversal',
    change: 'added',
    severity: 'high',
    reason: 'New fixture: koa-send serves the path the query names, without a root to confine it.',
  },
  {
    path: 'hint-corpus/trust-boundary/js-vuln-koa-session.js',
    line: 8,
    category: 'trust-boundary',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: Koa’s ctx.session written from the request body.',
  },
  {
    path: 'hint-corpus/trust-boundary/js-vuln-session-key.js',
    line: 9,
    category: 'trust-boundary',
    change: 'added',
    severity: 'low',
    reason: 'New fixture: an express-session key named by the request body.',
  },
  {
    path: 'hint-corpus/xpath-injection/js-vuln-libxmljs-get.js',
    line: 8,
    category: 'xpath-injection',
    change: 'added',
    severity: 'high',
    reason: 'New fixture: libxmljs get() evaluates an XPath built from the query.',
  },
  {
    path: 'hint-corpus/xss/js-vuln-express-send-string.js',
    line: 8,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason: 'New fixture: Express res.send serves a string as text/html, whatever markup it holds.',
  },
  {
    path: 'hint-corpus/xss/js-vuln-koa-body.js',
    line: 9,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason: 'New fixture: a Koa body that starts with < is served as text/html.',
  },
  {
    path: 'hint-corpus/xss/js-vuln-node-http-end.js',
    line: 7,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason: 'New fixture: Node http res.end of a query value after a text/html header.',
  },
  {
    path: 'hint-corpus/xss/js-vuln-nunjucks-autoescape.js',
    line: 3,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: nunjucks configured with autoescape off.',
  },
  {
    path: 'hint-corpus/xss/pug-vuln-unescaped.pug',
    line: 6,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: Pug’s != writes a value unescaped (.pug files are templates now).',
  },
  {
    path: 'hint-corpus/xss/ts-vuln-angular-renderer.ts',
    line: 11,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: Angular Renderer2.setProperty of innerHTML writes the DOM property unsanitised.',
  },
  {
    path: 'hint-corpus/xss/ts-vuln-contextual-fragment.ts',
    line: 3,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: Range.createContextualFragment parses its argument as HTML.',
  },
  {
    path: 'hint-corpus/xss/ts-vuln-contextual-fragment.ts',
    line: 8,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: an iframe’s srcdoc is a document parsed as HTML.',
  },
  {
    path: 'hint-corpus/xss/ts-vuln-next-route-html.ts',
    line: 5,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'New fixture: a Next.js route handler returns a text/html Response built from the query.',
  },
  {
    path: 'hint-corpus/xxe/js-vuln-libxmljs-dtdload.js',
    line: 4,
    category: 'xxe',
    change: 'added',
    severity: 'high',
    reason: 'New fixture: libxmljs told to load the external DTD subset.',
  },
  {
    path: 'hint-corpus/command-execution/php-vuln-laravel-process.php',
    line: 9,
    category: 'command-execution',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: Laravel Process::run of a command string runs it through a shell, with the request’s branch in it.',
  },
  {
    path: 'hint-corpus/ldap-injection/php-vuln-ldap-list.php',
    line: 4,
    category: 'ldap-injection',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: ldap_list takes a filter like ldap_search, now in the PHP LDAP row.',
  },
  {
    path: 'hint-corpus/path-traversal/php-vuln-file-probe.php',
    line: 5,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: file_exists probes a path the query names, now in the PHP file-API table.',
  },
  {
    path: 'hint-corpus/path-traversal/php-vuln-file-probe.php',
    line: 6,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: filesize probes a path the query names, now in the PHP file-API table.',
  },
  {
    path: 'hint-corpus/path-traversal/php-vuln-file-probe.php',
    line: 7,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: readfile of a path the query names.',
  },
  {
    path: 'hint-corpus/path-traversal/php-vuln-laravel-file.php',
    line: 9,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: Laravel response()->download of a path the query names.',
  },
  {
    path: 'hint-corpus/path-traversal/php-vuln-laravel-file.php',
    line: 13,
    category: 'path-traversal',
    change: 'added',
    severity: 'high',
    reason: 'New fixture: Laravel File::delete of a path the request names.',
  },
  {
    path: 'hint-corpus/trust-boundary/php-vuln-laravel-session.php',
    line: 7,
    category: 'trust-boundary',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: Laravel $request->session()->put of a request value.',
  },
  {
    path: 'hint-corpus/trust-boundary/php-vuln-session-key.php',
    line: 4,
    category: 'trust-boundary',
    change: 'added',
    severity: 'low',
    reason: 'New fixture: a $_SESSION key named by the request.',
  },
  {
    path: 'hint-corpus/weak-crypto/php-vuln-randomizer-engine.php',
    line: 4,
    category: 'weak-crypto',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: a Randomizer over the seedable Mt19937 engine makes an API key, now in the PHP weak-random row.',
  },
  {
    path: 'hint-corpus/xss/php-vuln-blade-raw.blade.php',
    line: 5,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: Blade’s {!! !!} prints unescaped (.blade.php files are templates too now).',
  },
  {
    path: 'hint-corpus/xss/php-vuln-die-message.php',
    line: 4,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason: 'New fixture: die() prints its message into the page.',
  },
  {
    path: 'hint-corpus/xss/php-vuln-filter-input-printf.php',
    line: 5,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason: 'New fixture: printf of a filter_input value (filter_input is a request source now).',
  },
  {
    path: 'hint-corpus/xss/php-vuln-laravel-return-string.php',
    line: 8,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason: 'New fixture: a Laravel route that returns a string serves it as text/html.',
  },
  {
    path: 'hint-corpus/xss/php-vuln-laravel-return-string.php',
    line: 12,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: Laravel response() of a string built from the query is a text/html page.',
  },
  {
    path: 'hint-corpus/xss/php-vuln-php-input-body.php',
    line: 4,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      "New fixture: php://input (the raw body) read with file_get_contents is request input; the page's text/html Content-Type header no longer reads as a non-HTML type.",
  },
  {
    path: 'hint-corpus/xss/php-vuln-php-input-fopen.php',
    line: 5,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason: 'New fixture: the body read through fopen of php://input is echoed into the page.',
  },
  {
    path: 'hint-corpus/xxe/php-vuln-substitute-entities.php',
    line: 4,
    category: 'xxe',
    change: 'added',
    severity: 'high',
    reason: 'New fixture: DOMDocument substituteEntities switched on.',
  },
  {
    path: 'hint-corpus/template-injection/js-vuln-pug.js',
    line: 7,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason:
      'A pug template compiled from the request body is sent as the page: its HTML is the client’s (a compiled template keeps its source’s taint).',
  },
];

const key = (h: { path: string; line: number; category: string }): string =>
  `${h.path}:${h.line}:${h.category}`;

function currentHints(): BaselineHint[] {
  return readLabelledFixtures().flatMap((fixture) =>
    indexFile({ path: fixture.path.replace(/^hint-(?:corpus|app)\//, ''), text: fixture.text }).map(
      (hint) => ({
        path: fixture.path,
        line: hint.line,
        category: hint.category,
        severity: hint.severity,
      }),
    ),
  );
}

function differences(
  before: BaselineHint[],
  after: BaselineHint[],
): Omit<ExpectedDifference, 'reason'>[] {
  const count = (list: BaselineHint[]): Map<string, BaselineHint[]> => {
    const map = new Map<string, BaselineHint[]>();
    for (const hint of list) map.set(key(hint), [...(map.get(key(hint)) ?? []), hint]);
    return map;
  };
  const was = count(before);
  const now = count(after);
  const found: Omit<ExpectedDifference, 'reason'>[] = [];
  for (const [place, hints] of now) {
    const old = was.get(place) ?? [];
    const first = hints[0] as BaselineHint;
    if (old.length === 0) {
      found.push({ ...first, change: 'added' });
      continue;
    }
    const oldSeverities = old
      .map((h) => h.severity)
      .sort()
      .join();
    const newSeverities = hints
      .map((h) => h.severity)
      .sort()
      .join();
    if (oldSeverities !== newSeverities) found.push({ ...first, change: 'severity' });
  }
  for (const [place, hints] of was)
    if (!now.has(place)) found.push({ ...(hints[0] as BaselineHint), change: 'removed' });
  return found.sort((a, b) => key(a).localeCompare(key(b)));
}

describe('hints on the fixture corpus and hint-app against the 5c9ac97 baseline', () => {
  it('differ only where the expected-differences table argues why', () => {
    const found = differences(BASELINE, currentHints());
    const expected = EXPECTED_DIFFERENCES.map(({ reason: _reason, ...rest }) => rest).sort((a, b) =>
      key(a).localeCompare(key(b)),
    );
    expect(found).toEqual(expected);
  });

  it('argues every expected difference in a line', () => {
    for (const difference of EXPECTED_DIFFERENCES) {
      expect(difference.reason.length).toBeGreaterThan(10);
      expect(difference.reason).not.toContain('\n');
    }
  });

  it('keeps a baseline that covers the corpus', () => {
    expect(BASELINE.length).toBeGreaterThan(250);
    expect(new Set(BASELINE.map((h) => h.path.split('/')[1])).size).toBeGreaterThan(20);
  });
});
