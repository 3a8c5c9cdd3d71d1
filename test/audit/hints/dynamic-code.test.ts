import { describe, it } from 'vitest';
import {
  expectHint,
  expectNoHint,
  lines,
  type NegativeCase,
  type PositiveCase,
} from './hint-cases.js';

const positives: PositiveCase[] = [
  [
    'js eval of a variable',
    'src/calc.js',
    lines('function calc(expr) {', '  return eval(expr);', '}'),
    'dynamic-code/js-eval',
    2,
    'high',
  ],
  ['ts indirect eval', 'src/a.ts', '(0, eval)(source);', 'dynamic-code/js-eval', 1, 'high'],
  ['js window.eval', 'public/app.js', 'window.eval(code)', 'dynamic-code/js-eval', 1, 'high'],
  [
    'js new Function with a body',
    'src/tpl.ts',
    lines('', '', 'const render = new Function("data", body);'),
    'dynamic-code/js-new-function',
    3,
    'high',
  ],
  [
    'node vm.runInNewContext',
    'src/sandbox.mjs',
    'vm.runInNewContext(userCode, sandbox);',
    'dynamic-code/js-vm-run',
    1,
    'high',
  ],
  [
    'node new vm.Script',
    'src/sandbox.cjs',
    'const script = new vm.Script(source);',
    'dynamic-code/js-vm-run',
    1,
    'high',
  ],
  [
    'setTimeout with a string',
    'public/legacy.js',
    'setTimeout("refresh(" + id + ")", 100);',
    'dynamic-code/js-string-timer',
    1,
    'medium',
  ],
  [
    'setInterval with a template string',
    'public/legacy.jsx',
    'setInterval(`tick(${n})`, 1000);',
    'dynamic-code/js-string-timer',
    1,
    'medium',
  ],
  [
    'python eval',
    'app/calc.py',
    lines('def calc(expr):', '    return eval(expr)'),
    'dynamic-code/python-exec-eval',
    2,
    'high',
  ],
  [
    'python exec',
    'app/plugin.py',
    'exec(compile(src, "plugin", "exec"))',
    'dynamic-code/python-exec-eval',
    1,
    'high',
  ],
  ['php eval', 'web/a.php', '<?php eval($_POST["code"]);', 'dynamic-code/php-eval', 1, 'high'],
  [
    'php preg_replace with /e',
    'web/a.php',
    "<?php preg_replace('/(.*)/e', 'strtoupper(\"\\\\1\")', $in);",
    'dynamic-code/php-eval',
    1,
    'high',
  ],
  ['ruby eval', 'lib/a.rb', 'eval(params[:code])', 'dynamic-code/ruby-eval', 1, 'high'],
  [
    'ruby class_eval with a heredoc',
    'lib/a.rb',
    lines('klass.class_eval <<-RUBY', '  def #{name}; end', 'RUBY'),
    'dynamic-code/ruby-eval',
    1,
    'high',
  ],
  [
    'perl string eval',
    'lib/A.pm',
    'my $v = eval "require $module";',
    'dynamic-code/perl-string-eval',
    1,
    'high',
  ],
  [
    'shell eval of a variable',
    'scripts/run.sh',
    lines('#!/bin/sh', 'eval "$CMD"'),
    'dynamic-code/shell-eval',
    2,
    'medium',
  ],
  [
    'java ScriptEngine eval',
    'src/Calc.java',
    lines(
      'import javax.script.ScriptEngine;',
      'class Calc { Object f(ScriptEngine e, String s) throws Exception { return e.eval(s); } }',
    ),
    'dynamic-code/java-script-engine',
    2,
    'medium',
  ],
];

const negatives: NegativeCase[] = [
  ['eval of a constant string', 'src/a.js', 'const req = eval("require");', 'dynamic-code/js-eval'],
  [
    'a method named evaluate',
    'src/a.ts',
    'await page.evaluate(() => document.title);',
    'dynamic-code/js-eval',
  ],
  ['eval mentioned in a comment', 'src/a.ts', '// never eval(input)', 'dynamic-code/js-eval'],
  [
    'eval inside a lint rule description',
    'src/rule.js',
    "description: 'Disallow the use of `eval()`',",
    'dynamic-code/js-eval',
  ],
  [
    'new Function of constant strings',
    'src/a.js',
    'var g = new Function("return this")();',
    'dynamic-code/js-new-function',
  ],
  [
    'vm run of a constant string',
    'src/a.js',
    'const g = vm.runInContext("this", context);',
    'dynamic-code/js-vm-run',
  ],
  [
    'setTimeout with a function',
    'src/a.js',
    'setTimeout(() => refresh(id), 100);',
    'dynamic-code/js-string-timer',
  ],
  [
    'python ast.literal_eval',
    'a.py',
    'value = ast.literal_eval(text)',
    'dynamic-code/python-exec-eval',
  ],
  ['python cursor.execute', 'a.py', 'cursor.execute("SELECT 1")', 'dynamic-code/python-exec-eval'],
  [
    'python method definition named eval',
    'a.py',
    '    def eval(self, x):',
    'dynamic-code/python-exec-eval',
  ],
  ['ruby class_eval with a block', 'lib/a.rb', 'klass.class_eval do', 'dynamic-code/ruby-eval'],
  [
    'perl eval block',
    'lib/A.pm',
    'eval { risky(); 1 } or warn $@;',
    'dynamic-code/perl-string-eval',
  ],
  ['shell eval of command output', 'x.sh', 'eval "$(ssh-agent -s)"', 'dynamic-code/shell-eval'],
  [
    'java eval without a script engine',
    'src/A.java',
    'return calculator.eval(expression);',
    'dynamic-code/java-script-engine',
  ],
];

describe('dynamic code rules', () => {
  it.each(positives)('%s', (_label, path, code, ruleId, line, severity) => {
    expectHint(path, code, ruleId, line, severity);
  });
  it.each(negatives)('near miss: %s', (_label, path, code, ruleId) => {
    expectNoHint(path, code, ruleId);
  });
});
