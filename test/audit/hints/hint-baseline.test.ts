import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { JAVA_GO_RUBY_DIFFERENCES } from './baseline-differences-java-go-ruby.js';
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
