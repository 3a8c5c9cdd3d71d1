import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './dynamic-code.examples.json' with { type: 'json' };

const JS_EVAL: HintRule = {
  id: 'dynamic-code/js-eval',
  category: 'dynamic-code',
  severity: 'high',
  description: 'eval() in JavaScript or TypeScript.',
  message: 'eval runs a string as code; verify the string can never hold caller-controlled text.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['js'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['eval'],
      pattern:
        /(?:(?<![\w$.])|\b(?:window|global|globalThis|self)\.)eval\s*\(|\(\s*0\s*,\s*eval\s*\)/,
      // A constant string (`eval("require")` hides a name from bundlers) cannot carry input.
      unless: /\bfunction\s+eval\b|\beval\s*\(\s*(["'])[^"'\\]*\1\s*\)/,
    },
  ],
};

const JS_NEW_FUNCTION: HintRule = {
  id: 'dynamic-code/js-new-function',
  category: 'dynamic-code',
  severity: 'high',
  description: 'new Function(...), which compiles a string into code.',
  message:
    'new Function compiles a string into code; verify the body and parameter strings are never caller-controlled.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['js'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['new function'],
      pattern: /\bnew\s+Function\s*\(/,
      // Only string literals (`new Function('return this')`): nothing from outside reaches the code.
      unless: /\bnew\s+Function\s*\(\s*(?:(["'])[^"'\\]*\1\s*,\s*)*(["'])[^"'\\]*\2\s*\)/,
    },
  ],
};

const JS_VM_RUN: HintRule = {
  id: 'dynamic-code/js-vm-run',
  category: 'dynamic-code',
  severity: 'high',
  description:
    'node:vm runIn*Context, compileFunction or new vm.Script (code from a string, and not a sandbox), or a vm2 sandbox running request data.',
  message:
    'node:vm runs a string as code and is not a security boundary; verify the code is never caller-controlled.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['js'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['vm.', 'runinnewcontext', 'runinthiscontext', 'runincontext'],
      pattern:
        /\bvm\.(?:runInNewContext|runInThisContext|runInContext|compileFunction)\s*\(|\bnew\s+vm\.(?:Script|SourceTextModule)\s*\(|(?<![\w$.])(?:runInNewContext|runInThisContext)\s*\(/,
      // Code that is a string literal cannot carry input (the next matcher looks at its context).
      unless:
        /\b(?:runInNewContext|runInThisContext|runInContext|Script)\s*\(\s*(["'])[^"'\\]*\1\s*[,)]/,
    },
    {
      kind: 'request-sink',
      // Fixed code that evaluates data (`runInContext('safeEval(x)', { x: body.x })`) runs that data as code;
      // fixed code that only parses it (`'libxml.parseXml(data)'`) does not.
      languages: ['js'],
      isStringScanned: false,
      keywords: ['vm.', 'runinnewcontext', 'runincontext'],
      pattern:
        /\b(?:vm\.)?(?:runInNewContext|runInContext)\s*\(\s*(["'])[^"'\\]*?(?<![\w$])(?:\w*(?:[eE]val|[eE]xec|[cC]ompile)\w*|Function|require|import)\s*\([^"'\\]*\1\s*,/,
      input: 'js',
    },
    {
      kind: 'request-sink',
      languages: ['js'],
      isStringScanned: false,
      keywords: ['vm.run', 'new vm', 'new nodevm', 'sandbox.run'],
      pattern: /\.run\s*\(/,
      fileRequires: /\bvm2\b/,
      input: 'js',
      argument: 'first',
    },
  ],
};

const JS_STRING_TIMER: HintRule = {
  id: 'dynamic-code/js-string-timer',
  category: 'dynamic-code',
  severity: 'medium',
  description: 'setTimeout or setInterval given a string, which is evaluated as code.',
  message: 'A timer is given a string, which is evaluated like eval; pass a function instead.',
  matchers: [
    {
      kind: 'code',
      languages: ['js', 'template'],
      isStringScanned: false,
      keywords: ['settimeout', 'setinterval'],
      pattern: /\bset(?:Timeout|Interval)\s*\(\s*["'`]/,
    },
  ],
};

const PYTHON_EXEC_EVAL: HintRule = {
  id: 'dynamic-code/python-exec-eval',
  category: 'dynamic-code',
  severity: 'high',
  description: 'Python exec() or eval().',
  message:
    'exec/eval runs a string as Python code; verify it never holds caller-controlled text (ast.literal_eval parses literals safely).',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['python'],
      isStringScanned: false,
      argument: 'call',
      // With the parenthesis, so cursor.execute and evaluate do not trigger the test.
      keywords: ['exec(', 'eval('],
      pattern: /(?<![\w.])(?:exec|eval)\s*\(/,
      unless: /\bdef\s+(?:exec|eval)\b|(?<![\w.])(?:exec|eval)\s*\(\s*(["'])[^"'\\]*\1\s*[,)]/,
    },
  ],
};

const PHP_EVAL: HintRule = {
  id: 'dynamic-code/php-eval',
  category: 'dynamic-code',
  severity: 'high',
  description:
    'PHP eval, create_function, assert on a string, or preg_replace with the /e modifier.',
  message: 'PHP evaluates a string as code here; verify it never holds request or user text.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['php'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['eval', 'create_function', 'assert', 'preg_replace'],
      pattern:
        /(?<![\w>:$])(?:eval|create_function)\s*\(|(?<![\w>:$])assert\s*\(\s*\$|\bpreg_replace\s*\(\s*(["'])([^\w\s\\])(?:(?!\2).)*\2[a-df-z]*e[a-z]*\1/,
    },
  ],
};

const RUBY_EVAL: HintRule = {
  id: 'dynamic-code/ruby-eval',
  category: 'dynamic-code',
  severity: 'high',
  description: 'Ruby eval, or instance_eval/class_eval/module_eval given a string.',
  message: 'Ruby evaluates a string as code here; verify it never holds caller-controlled text.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['ruby'],
      isStringScanned: false,
      argument: 'expression',
      keywords: ['eval', 'instance_eval', 'class_eval', 'module_eval'],
      pattern:
        /(?<![\w.:])eval\s*[(\s]\s*[^\s)]|\b(?:instance_eval|class_eval|module_eval)\s*(?:\(\s*[^)\s&]|["'%]|<<)/,
    },
  ],
};

const PERL_STRING_EVAL: HintRule = {
  id: 'dynamic-code/perl-string-eval',
  category: 'dynamic-code',
  severity: 'high',
  description: 'Perl eval of a string or variable (not an eval block).',
  message:
    'Perl string eval runs text as code; verify it never holds caller-controlled text (eval { } blocks are fine).',
  matchers: [
    {
      kind: 'code',
      languages: ['perl'],
      isStringScanned: false,
      keywords: ['eval'],
      pattern: /\beval\s*(?:\(\s*)?(?:["'$]|qq?\s*[{([/|!])/,
    },
  ],
};

const SHELL_EVAL: HintRule = {
  id: 'dynamic-code/shell-eval',
  category: 'dynamic-code',
  severity: 'medium',
  description: 'Shell eval of a variable.',
  message:
    'eval re-parses a variable as shell code; verify the variable cannot hold caller-controlled text.',
  matchers: [
    {
      kind: 'code',
      languages: ['shell'],
      isStringScanned: false,
      keywords: ['eval'],
      pattern: /(?:^|[\s;&|(])eval\s+(?:["'][^"']*)?\$(?!\()/,
    },
  ],
};

const JAVA_SCRIPT_ENGINE: HintRule = {
  id: 'dynamic-code/java-script-engine',
  category: 'dynamic-code',
  severity: 'medium',
  description:
    'A JVM script or expression engine (ScriptEngine, GroovyShell, SpEL, OGNL, MVEL) evaluating a string.',
  message:
    'A script or expression engine evaluates a string here; verify it never holds caller-controlled text.',
  matchers: [
    {
      kind: 'flow-sink',
      languages: ['java'],
      isStringScanned: false,
      argument: 'call',
      keywords: ['eval', 'parseexpression', 'evaluate'],
      pattern: /\.(?:eval|parseExpression|evaluate)\s*\(/,
      fileRequires:
        /\b(?:ScriptEngine|GroovyShell|SpelExpressionParser|ExpressionParser|OgnlUtil|Ognl|MVEL|JexlEngine)\b/,
    },
  ],
};

export const DYNAMIC_CODE_CATEGORY: CategoryRules = {
  category: 'dynamic-code',
  label: 'Dynamic code evaluation',
  sinkKind: 'code',
  rules: [
    JS_EVAL,
    JS_NEW_FUNCTION,
    JS_VM_RUN,
    JS_STRING_TIMER,
    PYTHON_EXEC_EVAL,
    PHP_EVAL,
    RUBY_EVAL,
    PERL_STRING_EVAL,
    SHELL_EVAL,
    JAVA_SCRIPT_ENGINE,
  ],
  examples: readExamples(EXAMPLES, 'dynamic-code.examples.json'),
};
