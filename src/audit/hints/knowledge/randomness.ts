import type { Language } from '../detect-languages.js';
import type { ReceiverCondition } from '../hint-rule.js';

// Every function of each language's non-cryptographic random generator, from its own reference
// (Python's `random` module, Go's `math/rand` and `math/rand/v2`, `java.util.Random`, PHP's
// random functions, Ruby's `Kernel#rand` and `Random`, .NET's `System.Random`, Perl's `rand`).
// Each row is the pattern of a call, the keywords that send a line to it, and two examples.

/** One language's weak random calls, with a flagged and a safe example of the table row. */
export interface WeakRandomRow {
  language: Language;
  keywords: readonly string[];
  pattern: RegExp;
  /** An import the file must hold for the row's bare names to be the library's. */
  fileRequires?: RegExp;
  flagged: string;
  safe: string;
  /** The pattern names a `receiver` the file must make from one of these (a generator held in a field). */
  receiver?: ReceiverCondition;
}

// https://docs.python.org/3/library/random.html: bookkeeping, bytes, integers, sequences, distributions.
const PYTHON_RANDOM_FUNCTIONS = [
  'random',
  'randbytes',
  'randrange',
  'randint',
  'getrandbits',
  'choice',
  'choices',
  'shuffle',
  'sample',
  'binomialvariate',
  'uniform',
  'triangular',
  'betavariate',
  'expovariate',
  'gammavariate',
  'gauss',
  'lognormvariate',
  'normalvariate',
  'vonmisesvariate',
  'paretovariate',
  'weibullvariate',
];

// https://pkg.go.dev/math/rand and https://pkg.go.dev/math/rand/v2: top-level functions and *Rand methods.
const GO_RANDOM_FUNCTIONS = [
  'ExpFloat64',
  'Float32',
  'Float64',
  'Int',
  'Int31',
  'Int31n',
  'Int32',
  'Int32N',
  'Int63',
  'Int63n',
  'Int64',
  'Int64N',
  'IntN',
  'Intn',
  'N',
  'NormFloat64',
  'Perm',
  'Read',
  'Shuffle',
  'Uint',
  'Uint32',
  'Uint32N',
  'Uint64',
  'Uint64N',
  'UintN',
  // A generator of one's own, and the sources and seeding it takes.
  'New',
  'NewSource',
  'NewPCG',
  'NewZipf',
  'Seed',
];

// https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/util/Random.html and
// java.util.random.RandomGenerator: the generators (Random, ThreadLocalRandom, SplittableRandom, the
// RandomGenerator factories), Math.random, and commons-lang's RandomStringUtils (built on Random).
const JAVA_RANDOM_SOURCES = [
  String.raw`\bnew\s+(?:java\.util\.)?(?:Random|SplittableRandom)\s*\(`,
  String.raw`(?<![\w.])Random\s*\(`,
  String.raw`\bMath\.random\s*\(`,
  String.raw`\bRandomStringUtils\.random\w*\s*\(`,
  String.raw`\bThreadLocalRandom\.current\s*\(`,
  String.raw`\bRandomGenerator(?:Factory)?\.(?:getDefault|of)\s*\(`,
];
// java.util.random.RandomGenerator (Java SE 21), which Random, ThreadLocalRandom and SplittableRandom
// implement: the methods that draw a value, called on a generator held in a variable or field.
const JAVA_GENERATOR_METHODS = [
  'nextBoolean',
  'nextBytes',
  'nextDouble',
  'nextExponential',
  'nextFloat',
  'nextGaussian',
  'nextInt',
  'nextLong',
  'ints',
  'longs',
  'doubles',
];
// https://ruby-doc.org/3.3/Random.html, Kernel#rand and Kernel#srand, Random::Formatter, and
// Array#shuffle and Array#sample (which draw from Random unless given `random: SecureRandom`).
// `Random.new` (and `Random::DEFAULT`'s class), not SecureRandom.
const RUBY_RANDOM_NEW = String.raw`(?<![\w:])Random\.new\b`;
const RUBY_RANDOM_SOURCES = [
  String.raw`(?<![\w.:])s?rand\s*[(\s]`,
  String.raw`(?<![\w:])Random(?:::DEFAULT)?\.(?:rand|new|bytes|random_number|seed|new_seed)\b`,
  String.raw`\.(?:sample|shuffle)\b(?!\s*\(\s*random:\s*SecureRandom)`,
];

// JavaScript's one generator is Math.random (ECMA-262: "implementation-defined algorithm", not
// cryptographic; https://developer.mozilla.org/docs/Web/JavaScript/Reference/Global_Objects/Math/random).
// The safe ones: Node's crypto.randomBytes, randomFill, randomInt, randomUUID and the Web Crypto
// getRandomValues (https://nodejs.org/api/crypto.html).
const JS_RANDOM_FUNCTIONS = ['random'];
// lodash's random, shuffle, sample and sampleSize draw from Math.random (lodash/lodash random.js at
// 0369bf7a: `const nativeRandom = Math.random`; _baseRandom.js at 7293d396, which shuffleSelf and
// arraySample call); underscore's _.random, _.shuffle and _.sample are built on Math.random too.
const LODASH_RANDOM_FUNCTIONS = ['random', 'shuffle', 'sample', 'sampleSize'];
const LODASH_MODULE = String.raw`lodash(?:-es)?|underscore`;
// A lodash function imported by name: `import { sample } from 'lodash'`, `require('lodash/random')`,
// the per-method packages (`lodash.samplesize`).
const LODASH_IMPORT = new RegExp(
  [
    // Bounded, so a hostile file of unclosed braces costs a line's work per brace, not the file's.
    String.raw`\{(?=[\w$\s,:]{0,300}?\b(?:${LODASH_RANDOM_FUNCTIONS.join('|')})\b)[\w$\s,:]{0,300}\}\s*(?:from\s*|=\s*require\s*\(\s*)["'](?:${LODASH_MODULE})["']`,
    String.raw`["']lodash(?:-es)?\/(?:${LODASH_RANDOM_FUNCTIONS.join('|')})(?:\.js)?["']`,
    String.raw`["']lodash\.(?:${LODASH_RANDOM_FUNCTIONS.join('|')})["']`,
  ].join('|'),
  'i',
);

// PHP's generators that are not cryptographically secure (https://www.php.net/manual/en/book.random.php
// and the Math functions): the Mt19937 functions, lcg_value, uniqid, the shuffling and picking
// functions, and Random\\Randomizer over a seedable engine (Mt19937, PcgOneseq128XslRr64,
// Xoshiro256StarStar). The safe ones: random_int, random_bytes, a Randomizer over the default
// Random\\Engine\\Secure, and Laravel's Str::random (random_bytes). Laravel's Arr::random and
// Arr::shuffle, and the Collection's random() and shuffle() built on them, are safe too: they draw
// from `new Randomizer` over that Secure engine (laravel/framework src/Illuminate/Collections/Arr.php
// at e62915f7, Collection.php at 00b432ee), so no row lists them.
const PHP_RANDOM_FUNCTIONS = [
  'rand',
  'mt_rand',
  'srand',
  'mt_srand',
  'lcg_value',
  'uniqid',
  'str_shuffle',
  'shuffle',
  'array_rand',
];
const PHP_SEEDABLE_ENGINES = ['Mt19937', 'PcgOneseq128XslRr64', 'Xoshiro256StarStar'];

export const WEAK_RANDOM: readonly WeakRandomRow[] = [
  {
    language: 'js',
    keywords: ['math.random'],
    pattern: new RegExp(String.raw`\bMath\.(?:${JS_RANDOM_FUNCTIONS.join('|')})\s*\(`),
    flagged: 'const resetToken = Math.floor(Math.random() * 1e9).toString(36);',
    safe: 'const resetToken = crypto.randomInt(1e9).toString(36);',
  },
  {
    language: 'js',
    keywords: ['_', 'lodash', 'underscore'].flatMap((module) =>
      ['random', 'shuffle', 'sample'].map((name) => `${module}.${name}`),
    ),
    pattern: new RegExp(
      String.raw`(?<![\w$.])(?:_|lodash|underscore)\.(?:${LODASH_RANDOM_FUNCTIONS.join('|')})\s*\(`,
    ),
    flagged: "const inviteCode = _.sampleSize(ALPHABET, 12).join('');",
    safe: "const inviteCode = Array.from({ length: 12 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('');",
  },
  {
    language: 'js',
    keywords: LODASH_RANDOM_FUNCTIONS.map((name) => `${name.toLowerCase()}(`),
    pattern: new RegExp(
      String.raw`(?<![\w$.]|function\s+)(?:${LODASH_RANDOM_FUNCTIONS.join('|')})\s*\(`,
    ),
    fileRequires: LODASH_IMPORT,
    flagged:
      "const random = require('lodash/random');\nconst resetToken = String(random(1e9, 9e9));",
    safe: "const { shuffle } = require('lodash');\nconst resetToken = crypto.randomBytes(16).toString('hex');",
  },
  {
    language: 'python',
    keywords: ['random'],
    // The module's functions, or a `random.Random()` generator of one's own (SystemRandom is the safe one).
    pattern: new RegExp(
      String.raw`\brandom\.(?:${PYTHON_RANDOM_FUNCTIONS.join('|')})\s*\(|\brandom\.Random\s*\(`,
    ),
    flagged: 'reset_token = str(random.normalvariate())[2:]',
    safe: 'reset_token = secrets.token_urlsafe(32)',
  },
  {
    language: 'php',
    keywords: [...PHP_RANDOM_FUNCTIONS, ...PHP_SEEDABLE_ENGINES.map((name) => name.toLowerCase())],
    pattern: new RegExp(
      String.raw`(?<![\w>:$\\])(?:${PHP_RANDOM_FUNCTIONS.join('|')})\s*\(|\b(?:${PHP_SEEDABLE_ENGINES.join('|')})\s*\(`,
    ),
    flagged:
      '$resetToken = bin2hex((new Random\\Randomizer(new Random\\Engine\\Mt19937()))->getBytes(16));',
    safe: '$resetToken = bin2hex((new Random\\Randomizer())->getBytes(16));',
  },
  {
    language: 'go',
    keywords: ['rand'],
    pattern: new RegExp(String.raw`\brand\.(?:${GO_RANDOM_FUNCTIONS.join('|')})\s*[([]`),
    flagged: 'token := strconv.Itoa(rand.IntN(1 << 30))',
    safe: 'n, err := cryptorand.Read(tokenBytes)',
  },
  {
    language: 'java',
    keywords: [
      'new random',
      'new java.util.random',
      'new splittablerandom',
      'random(',
      'math.random',
      'randomstringutils',
      'threadlocalrandom',
      'randomgenerator',
    ],
    pattern: new RegExp(JAVA_RANDOM_SOURCES.join('|')),
    flagged: 'String sessionToken = Long.toHexString(new SplittableRandom().nextLong());',
    safe: 'String sessionToken = Long.toHexString(new SecureRandom().nextLong());',
  },
  {
    language: 'java',
    keywords: JAVA_GENERATOR_METHODS.map((name) => name.toLowerCase()),
    pattern: new RegExp(
      String.raw`(?<receiver>[A-Za-z_$][\w$]*)\s*\.\s*(?:${JAVA_GENERATOR_METHODS.join('|')})\s*\(`,
    ),
    receiver: { assignedFrom: new RegExp(JAVA_RANDOM_SOURCES.join('|')) },
    // The field is declared away from the use, so only the held form can flag the use.
    flagged:
      'static final Random GEN = new Random();\n\n\n\nString sessionToken = Long.toHexString(GEN.nextLong());',
    safe: 'static final Random GEN = new SecureRandom();\n\n\n\nString sessionToken = Long.toHexString(GEN.nextLong());',
  },
  {
    language: 'ruby',
    keywords: ['rand', 'srand', 'random', 'sample', 'shuffle'],
    pattern: new RegExp(RUBY_RANDOM_SOURCES.join('|')),
    flagged: 'reset_token = ALPHABET.chars.sample(24).join',
    safe: 'reset_token = SecureRandom.alphanumeric(24)',
  },
  // A Random held in an instance variable, class variable, constant or local (`@rng = Random.new`,
  // `RNG ||= Random.new(seed)`), then drawn from with its instance methods (ruby-doc.org/3.3/Random.html:
  // #rand, #bytes, and Random::Formatter#random_number).
  {
    language: 'ruby',
    keywords: ['rand', 'bytes', 'random_number'],
    pattern: /(?<receiver>(?<![\w@$:.])@{0,2}[A-Za-z_]\w*)\s*\.\s*(?:rand|bytes|random_number)\b/,
    receiver: { assignedFrom: new RegExp(RUBY_RANDOM_NEW) },
    // The generator is made away from the use, so only the held form can flag the use.
    flagged: 'RNG = Random.new\n\n\n\nreset_token = RNG.bytes(16).unpack1("H*")',
    safe: 'RNG = SecureRandom\n\n\n\nreset_token = RNG.bytes(16).unpack1("H*")',
  },
];

/** The weak random rows of a language. */
export function weakRandomOf(language: Language): WeakRandomRow[] {
  const rows = WEAK_RANDOM.filter((r) => r.language === language);
  if (rows.length === 0) throw new Error(`no weak-random row for ${language}`);
  return rows;
}
