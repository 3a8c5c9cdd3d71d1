import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './path-traversal.examples.json' with { type: 'json' };
import { JS_DECLARATION_LINE } from '../matchers/js-declaration-line.js';
import { escapeRegExp } from '../escape-reg-exp.js';
import {
  GIN_FILE_METHODS,
  GO_PATH_CALLS,
  JAVA_FILE_CLASSES,
  JAVA_PATH_LEAF_METHODS,
  JAVA_PATH_CALLS,
  JAVA_PATH_OWNERS,
  JAVA_RESOURCE_METHODS,
  JAVA_UPLOAD_PART_PATH_METHODS,
  JAVA_UPLOAD_PART_TYPE,
  NODE_FS_FUNCTIONS,
  NODE_FS_IMPORT,
  LARAVEL_FILE_METHODS,
  PHP_PATH_CLASSES,
  PHP_PATH_FUNCTIONS,
  PHP_TWO_PATH_FUNCTIONS,
  PYTHON_PATH_BUILTINS,
  PYTHON_PATH_CALLS,
  PYTHON_PATH_METHODS,
  RUBY_DIR_METHODS,
  RUBY_FILE_METHODS,
  RUBY_PATHNAME_METHODS,
} from '../knowledge/file-apis.js';

// A Java path built and at once cut to its leaf (`new File(name).getName()`, `Paths.get(name).getFileName()`)
// opens nothing: the call's arguments (one level of nested calls) then a leaf method. Bounded.
const JAVA_NOT_CUT_TO_LEAF = String.raw`(?!(?:[^()]|\((?:[^()]|\([^()]*\))*\)){0,300}\)\s*\.\s*(?:${JAVA_PATH_LEAF_METHODS.join('|')})\s*\(\s*\))`;

const FILE_ACCESS: HintRule = {
  id: 'path-traversal/request-input-file-access',
  category: 'path-traversal',
  severity: 'high',
  description:
    'A file API whose path argument carries request input or an archive entry name (zip slip); medium when it arrives through a variable.',
  message:
    'File path built from request input or an archive entry name; verify it is normalised and confined to an allowed directory (no `..`, no absolute paths).',
  matchers: [
    {
      kind: 'request-sink',
      languages: ['js'],
      isStringScanned: false,
      input: 'js',
      argument: 'first',
      // Express's sendFile and download with a `root` option refuse a path that climbs out of it
      // (https://expressjs.com/en/5x/api.html#res.sendFile).
      unless: new RegExp(
        String.raw`${JS_DECLARATION_LINE.source}|\b(?:sendFile|download)\s*\([^;]*\broot\s*:`,
      ),
      keywords: [
        'fs',
        'promises',
        'readfile',
        'writefile',
        'appendfile',
        'createreadstream',
        'createwritestream',
        'unlink',
        'readdir',
        'sendfile',
        'download',
      ],
      // `fs.x(`, `fs.xSync(`, `fs.promises.x(`; bare calls of the imported names most often destructured.
      pattern: new RegExp(
        String.raw`\b(?:fs|fsp|fse|fsPromises|promises)\.(?:${NODE_FS_FUNCTIONS.join('|')})(?:Sync)?\s*\(|(?<![\w$.])(?:readFile|readFileSync|writeFile|writeFileSync|createReadStream|createWriteStream|unlink|readdir)\s*\(|\bres\.(?:sendFile|download)\s*\(`,
      ),
    },
    // Any fs function called by its bare name in a file that imports it (`const { rm } = require('fs')`),
    // and koa-send's `send(ctx, path)`.
    {
      kind: 'request-sink',
      languages: ['js'],
      isStringScanned: false,
      input: 'js',
      argument: 'first',
      unless: JS_DECLARATION_LINE,
      keywords: NODE_FS_FUNCTIONS.map((name) => name.toLowerCase()),
      pattern: new RegExp(String.raw`(?<![\w$.])(?:${NODE_FS_FUNCTIONS.join('|')})(?:Sync)?\s*\(`),
      fileRequires: NODE_FS_IMPORT,
    },
    {
      kind: 'request-sink',
      languages: ['js'],
      isStringScanned: false,
      input: 'js',
      keywords: ['send'],
      pattern: /(?<![\w$.])send\s*\(\s*ctx\s*,/,
      // koa-send's `root` confines the path to that directory (koajs/send README).
      unless: /\broot\s*:/,
      fileRequires: /["']koa-send["']/,
    },
    {
      kind: 'request-sink',
      languages: ['python'],
      isStringScanned: false,
      input: 'python',
      argument: 'first',
      keywords: [
        ...PYTHON_PATH_BUILTINS,
        ...new Set(
          PYTHON_PATH_CALLS.map((call) => call.toLowerCase().replace(/^(?:os\.path|\w+)\./, '')),
        ),
      ],
      pattern: new RegExp(
        String.raw`(?<![\w.])(?:${PYTHON_PATH_BUILTINS.join('|')})\s*\(|\b(?:${PYTHON_PATH_CALLS.map(escapeRegExp).join('|')})\s*\(`,
      ),
    },
    {
      kind: 'request-sink',
      languages: ['python'],
      isStringScanned: false,
      input: 'python',
      argument: 'receiver',
      keywords: PYTHON_PATH_METHODS,
      pattern: new RegExp(String.raw`\.(?:${PYTHON_PATH_METHODS.join('|')})\s*\(`),
      fileRequires: /\bpathlib\b|\bPath\b/,
    },
    // Ruby: File, IO and FileTest, Kernel#open, FileUtils, Dir (and `Dir[pattern]`), Pathname, send_file, render file:.
    {
      kind: 'request-sink',
      languages: ['ruby'],
      isStringScanned: false,
      input: 'ruby',
      argument: 'first',
      keywords: [
        'file.',
        'filetest.',
        'io.',
        'fileutils',
        'send_file',
        'render',
        'pathname',
        'dir.',
        'dir[',
        'open',
      ],
      pattern: new RegExp(
        [
          String.raw`\b(?:File|IO|FileTest)\.(?:${RUBY_FILE_METHODS.map(escapeRegExp).join('|')})(?![\w?!])`,
          String.raw`\bFileUtils\.\w+`,
          String.raw`\bDir\.(?:${RUBY_DIR_METHODS.map(escapeRegExp).join('|')})(?![\w?!])|\bDir\s*\[`,
          String.raw`\bPathname(?:\.new)?\s*\(`,
          String.raw`\bsend_file\b`,
          String.raw`\brender\s*\(?\s*(?:file:|:file\s*=>)`,
          String.raw`(?<![\w.])open\s*\(|\bKernel\.open\b`,
        ].join('|'),
      ),
    },
    // A Pathname's own methods act on the receiver's path (`Rails.root.join("files", name).read`).
    {
      kind: 'request-sink',
      languages: ['ruby'],
      isStringScanned: false,
      input: 'ruby',
      argument: 'receiver',
      keywords: RUBY_PATHNAME_METHODS,
      pattern: new RegExp(String.raw`\.(?:${RUBY_PATHNAME_METHODS.join('|')})\b(?![?!])`),
      fileRequires: /\bPathname\b|\bRails\.root\b/,
    },
    {
      kind: 'request-sink',
      languages: ['php'],
      isStringScanned: false,
      input: 'php',
      argument: 'first',
      keywords: [
        ...PHP_PATH_FUNCTIONS,
        ...PHP_PATH_CLASSES.map((name) => name.toLowerCase()),
        'include',
        'require',
        'file::',
        'download',
      ],
      pattern: new RegExp(
        [
          String.raw`(?<![\w>:$\\])(?:${PHP_PATH_FUNCTIONS.join('|')})\s*\(`,
          String.raw`\bnew\s+\\?(?:${PHP_PATH_CLASSES.join('|')})\s*\(`,
          String.raw`\bFile::(?:${LARAVEL_FILE_METHODS.join('|')})\s*\(`,
          String.raw`\bresponse\s*\(\s*\)\s*->\s*(?:download|file)\s*\(`,
          String.raw`\b(?:include|include_once|require|require_once)\b`,
        ].join('|'),
      ),
    },
    {
      kind: 'request-sink',
      languages: ['php'],
      isStringScanned: false,
      input: 'php',
      argument: 'call',
      keywords: PHP_TWO_PATH_FUNCTIONS,
      pattern: new RegExp(String.raw`(?<![\w>:$\\])(?:${PHP_TWO_PATH_FUNCTIONS.join('|')})\s*\(`),
    },
    {
      kind: 'request-sink',
      languages: ['java'],
      isStringScanned: false,
      input: 'java',
      keywords: [
        'new file',
        'new java.',
        'new org.',
        'file(',
        ...JAVA_FILE_CLASSES.filter((name) => name !== 'File').map((name) => name.toLowerCase()),
        ...JAVA_PATH_OWNERS.map((owner) => `${owner.toLowerCase()}.`),
        ...JAVA_PATH_CALLS.map((call) => call.toLowerCase()),
        ...JAVA_RESOURCE_METHODS.map((method) => method.toLowerCase()),
      ],
      // A canonical-path check right after (`getCanonicalPath().startsWith(root)`) confines the path.
      near: {
        before: 0,
        after: 4,
        forbids: /(?:getCanonicalPath|toRealPath|normalize)\s*\(\s*\)\s*\.startsWith\s*\(/,
      },
      // A path held only to take its leaf (`File f = new File(name);` then `f.getName()`) opens nothing.
      unlessHeldOnlyFor: JAVA_PATH_LEAF_METHODS,
      pattern: new RegExp(
        [
          String.raw`\bnew\s+(?:java\.(?:io|util\.zip|util\.jar)\.|org\.springframework\.core\.io\.)?(?:${JAVA_FILE_CLASSES.join('|')})\s*\(${JAVA_NOT_CUT_TO_LEAF}`,
          String.raw`(?<![\w.])File\s*\(${JAVA_NOT_CUT_TO_LEAF}`,
          String.raw`\b(?:java\.nio\.file\.)?(?:(?:${JAVA_PATH_OWNERS.join('|')})\.\w+|${JAVA_PATH_CALLS.map(escapeRegExp).join('|')})\s*\(${JAVA_NOT_CUT_TO_LEAF}`,
          String.raw`\.(?:${JAVA_RESOURCE_METHODS.join('|')})\s*\(`,
        ].join('|'),
      ),
    },
    // An upload part stored under a name: on a variable declared a `Part`, or on `getPart(…)` itself.
    {
      kind: 'request-sink',
      languages: ['java'],
      isStringScanned: false,
      input: 'java',
      argument: 'first',
      keywords: JAVA_UPLOAD_PART_PATH_METHODS,
      pattern: new RegExp(
        String.raw`(?:(?<receiver>[A-Za-z_$][\w$]*)|\.getPart\s*\([^()]*\))\s*\.\s*(?:${JAVA_UPLOAD_PART_PATH_METHODS.join('|')})\s*\(`,
      ),
      receiver: { declaredAs: JAVA_UPLOAD_PART_TYPE },
      fileRequires: /Part\b/,
    },
    {
      kind: 'request-sink',
      languages: ['go'],
      isStringScanned: false,
      input: 'go',
      argument: 'first',
      keywords: [
        ...new Set(GO_PATH_CALLS.map((call) => call.slice(0, call.indexOf('.') + 1).toLowerCase())),
      ],
      pattern: new RegExp(String.raw`\b(?:${GO_PATH_CALLS.map(escapeRegExp).join('|')})\s*\(`),
    },
    // Gin: `c.File(path)`, `c.SaveUploadedFile(file, dst)`: any argument may be the path.
    {
      kind: 'request-sink',
      languages: ['go'],
      isStringScanned: false,
      input: 'go',
      keywords: GIN_FILE_METHODS.map((method) => method.toLowerCase()),
      pattern: new RegExp(String.raw`\bc\.(?:${GIN_FILE_METHODS.join('|')})\s*\(`),
    },
    {
      kind: 'request-sink',
      languages: ['csharp'],
      isStringScanned: false,
      input: 'csharp',
      argument: 'first',
      keywords: [
        'file.',
        'file(',
        'new filestream',
        'new streamreader',
        'new streamwriter',
        'new fileinfo',
        'new directoryinfo',
        'path.combine',
        'directory.',
        'physicalfile',
      ],
      pattern:
        /\bFile\.(?:ReadAllText|ReadAllBytes|ReadAllLines|WriteAllText|WriteAllBytes|Open|OpenRead|OpenWrite|Delete|Copy|Move|AppendAllText|Create)\s*\(|\bnew\s+(?:FileStream|StreamReader|StreamWriter|FileInfo|DirectoryInfo)\s*\(|\bPath\.Combine\s*\(|\b(?:PhysicalFile|File)\s*\(|\bDirectory\.\w+\s*\(/,
    },
    {
      kind: 'request-sink',
      languages: ['perl'],
      isStringScanned: false,
      input: 'perl',
      argument: 'first',
      keywords: ['open', 'unlink', 'opendir'],
      pattern: /\bopen(?:dir)?\s*\(|\bunlink\b/,
    },
  ],
};

export const PATH_TRAVERSAL_CATEGORY: CategoryRules = {
  category: 'path-traversal',
  label: 'Path traversal',
  sinkKind: 'path',
  rules: [FILE_ACCESS],
  examples: readExamples(EXAMPLES, 'path-traversal.examples.json'),
};
