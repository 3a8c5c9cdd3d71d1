import type { CategoryRules, FlowSinkMatcher, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './sql-injection.examples.json' with { type: 'json' };

// Pieces of SQL that only read as SQL, not as English: a statement head, or a clause that
// continues a statement across a concatenation or a multi-line string.
const NAME = String.raw`[\w.\x60"[\]]+`;
const COLUMN = String.raw`(?:[\w.\x60"[\]*]+|\w+\([^()]*\))(?:\s+as\s+\w+)?`;
const SQL_STATEMENT = [
  String.raw`select\s+(?:distinct\s+|top\s+\d+\s+)?${COLUMN}(?:\s*,\s*${COLUMN})*\s+from\s`,
  String.raw`insert\s+(?:or\s+\w+\s+)?into\s+${NAME}\s*(?:\(|values\b|select\b|set\b|["'\x60]|$)`,
  String.raw`update\s+${NAME}\s+set\s`,
  String.raw`delete\s+from\s+${NAME}\s*(?:where\b|;|["'\x60]|$)`,
  // A stored-procedure call in JDBC escape syntax: `{call proc(?)}`, `{? = call f}`.
  String.raw`\{\s*(?:\?\s*=\s*)?call\s`,
].join('|');
const SQL_CLAUSE = [
  String.raw`where\s+${NAME}\s*(?:=|<>|!=|<|>|\blike\b|\bin\b|\bis\b)`,
  String.raw`order\s+by\s`,
  String.raw`group\s+by\s`,
  String.raw`values\s*\(`,
  String.raw`having\s`,
  String.raw`(?:inner\s+|left\s+|right\s+|outer\s+)?join\s+${NAME}\s+(?:\w+\s+)?on\s`,
].join('|');
const SQL = `(?:${SQL_STATEMENT}|${SQL_CLAUSE})`;
const SQL_KEYWORDS = [
  'select',
  'insert',
  'update',
  'delete',
  'where',
  'order by',
  'group by',
  'values',
  'having',
  'join',
  '{call',
  '{ call',
  '{?',
];

// A quoted string (quote captured as group 1) that starts with SQL.
const QUOTED_SQL = (quotes: string): string =>
  String.raw`([${quotes}])\s*${SQL}(?:(?!\1)[^\\]|\\.)*\1`;

function sqlMatcher(
  languages: FlowSinkMatcher['languages'],
  source: string,
  sinks: RegExp,
  extra: Partial<Omit<FlowSinkMatcher, 'kind'>> = {},
): FlowSinkMatcher {
  return {
    kind: 'flow-sink',
    languages,
    keywords: SQL_KEYWORDS,
    pattern: new RegExp(source, 'i'),
    escalate: { severity: 'high', onLine: sinks },
    argument: 'expression',
    ...extra,
  };
}

const JS_SINKS =
  /(?:\.|\b)(?:query|execute|exec|raw|run|all|prepare|unsafe|whereRaw|orderByRaw|\$?queryRawUnsafe|\$?executeRawUnsafe)\s*\(/;
const PYTHON_SINKS =
  /\.(?:execute|executemany|executescript|raw|extra|read_sql(?:_query)?|exec_driver_sql)\s*\(|\btext\s*\(/;
const RUBY_QUERY_METHOD = String.raw`\.(?:where|find_by_sql|order|having|joins|group|pluck|select|from|exists\?|execute|exec_query|select_all|select_value|select_rows|count_by_sql|delete_all|update_all)`;
const RUBY_SINKS = new RegExp(String.raw`${RUBY_QUERY_METHOD}\s*\(`);
const PHP_SINKS =
  /(?:mysqli?_query|pg_query|sqlsrv_query|->query|->exec|->prepare|DB::(?:raw|select|statement|unprepared)|whereRaw|selectRaw|orderByRaw|havingRaw)\s*\(/;
const JVM_SINKS =
  /\b(?:executeQuery|executeUpdate|executeLargeUpdate|execute|addBatch|prepareStatement|prepareCall|createQuery|createNativeQuery|createSQLQuery|queryForObject|queryForList|queryForMap|query|update|batchUpdate|SqlCommand|FromSqlRaw|ExecuteSqlRaw|ExecuteSqlCommand|ExecuteReader|ExecuteNonQuery|ExecuteScalar|Query|Execute)\s*(?:<[^>]*>)?\s*\(/;
const GO_SINKS =
  /\.(?:Query|QueryRow|QueryContext|QueryRowContext|Exec|ExecContext|Raw|Prepare|PrepareContext|Select|Get)\s*\(/;
const PERL_SINKS = /->(?:do|prepare|prepare_cached|selectrow_\w+|selectall_\w+|selectcol_\w+)\s*\(/;

const STRING_BUILT_QUERY: HintRule = {
  id: 'sql/string-built-query',
  category: 'sql-injection',
  severity: 'medium',
  description:
    'SQL text built by concatenation, interpolation or formatting instead of bound parameters (high when built inside the query call).',
  message:
    'SQL built from string pieces; verify every interpolated value is a bound parameter or a fixed identifier, never caller-controlled text.',
  matchers: [
    sqlMatcher(
      ['js'],
      // Untagged template literal (tagged ones such as sql`...` bind their values), concatenation, or
      // a line of a multi-line template that starts with SQL and interpolates.
      String.raw`(?<![\w$])\x60\s*${SQL}[^\x60]*?\$\{|${QUOTED_SQL(`"'\x60`)}\s*\+|\+\s*["'\x60]\s*${SQL}`,
      JS_SINKS,
    ),
    {
      ...sqlMatcher(['js'], String.raw`^\s*${SQL}[^\x60]*\$\{`, JS_SINKS),
      near: { before: 12, after: 0, forbids: /[\w$]\x60/ },
    },
    sqlMatcher(
      ['python'],
      String.raw`\b(?:[rR]?[fF]|[fF][rR])(?:"""|'''|"|')\s*${SQL}[^\n]*?\{[^}]|${QUOTED_SQL(`"'`)}\s*(?:%\s*[\w(\[{]|\.format\s*\(|\+\s*[\w(])|\+\s*["']\s*${SQL}|^\s*${SQL}[^\n]*\{\w[\w.\[\]'"]*\}`,
      PYTHON_SINKS,
    ),
    sqlMatcher(
      ['ruby'],
      String.raw`"\s*${SQL}[^"]*#\{|${QUOTED_SQL(`"'`)}\s*\+\s*[\w(@]|^\s*${SQL}[^\n]*#\{`,
      RUBY_SINKS,
    ),
    {
      kind: 'flow-sink',
      languages: ['ruby'],
      keywords: [
        'where',
        'find_by_sql',
        'order',
        'having',
        'joins',
        'group',
        'pluck',
        'select',
        'from',
        'exists',
        'execute',
        'exec_query',
        'count_by_sql',
        'delete_all',
        'update_all',
      ],
      pattern: new RegExp(String.raw`${RUBY_QUERY_METHOD}\s*\(?\s*"[^"]*#\{`),
      escalate: { severity: 'high', onLine: /./ },
      argument: 'call',
    },
    sqlMatcher(
      ['php'],
      String.raw`"\s*${SQL}[^"]*(?:\$\w|\{\$)|${QUOTED_SQL(`"'`)}\s*\.\s*\$|\.\s*["']\s*${SQL}|^\s*${SQL}[^\n]*\$\w`,
      PHP_SINKS,
    ),
    {
      kind: 'flow-sink',
      languages: ['php'],
      keywords: ['whereraw', 'selectraw', 'orderbyraw', 'havingraw', 'db'],
      pattern:
        /\b(?:whereRaw|havingRaw|orderByRaw|selectRaw|DB::raw|DB::statement|DB::select|DB::unprepared)\s*\(\s*(?:"[^"]*\$\w|(["'])(?:(?!\1).)*\1\s*\.\s*\$)/,
      escalate: { severity: 'high', onLine: /./ },
      argument: 'call',
    },
    sqlMatcher(
      ['java', 'csharp'],
      String.raw`"\s*${SQL}[^"]*"\s*\+\s*[\w(]|\+\s*"\s*${SQL}|\bString\.format\s*\(\s*"\s*${SQL}[^"]*%[sd]|"\s*${SQL}[^"]*"\s*\.formatted\s*\(`,
      JVM_SINKS,
    ),
    // Kotlin and Groovy string templates.
    sqlMatcher(['java'], String.raw`"\s*${SQL}[^"]*\$\{?[A-Za-z_]`, JVM_SINKS),
    sqlMatcher(['csharp'], String.raw`(?:\$@?|@\$)"\s*${SQL}[^"]*\{`, JVM_SINKS, {
      // EF Core turns these interpolations into parameters.
      unless:
        /\b(?:FromSqlInterpolated|ExecuteSqlInterpolated(?:Async)?|SqlQuery)\s*(?:<[^>]*>)?\s*\(/,
    }),
    sqlMatcher(
      ['go'],
      String.raw`\bfmt\.Sprintf\s*\(\s*[\x60"]\s*${SQL}[^"\x60]*%[svdq]|${QUOTED_SQL(`"\x60`)}\s*\+\s*[\w(]|\+\s*["\x60]\s*${SQL}`,
      GO_SINKS,
    ),
    sqlMatcher(
      ['perl'],
      String.raw`"\s*${SQL}[^"]*\$[\w{]|${QUOTED_SQL(`"'`)}\s*\.\s*\$|\.\s*["']\s*${SQL}`,
      PERL_SINKS,
    ),
  ],
};

export const SQL_INJECTION_CATEGORY: CategoryRules = {
  category: 'sql-injection',
  label: 'SQL built from strings',
  sinkKind: 'sql',
  rules: [STRING_BUILT_QUERY],
  examples: readExamples(EXAMPLES, 'sql-injection.examples.json'),
};
