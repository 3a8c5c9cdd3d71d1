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
    'node md5 for a cache key',
    'src/cache.ts',
    "const key = createHash('md5').update(url).digest('hex');",
    'crypto/weak-hash',
    1,
    'low',
  ],
  [
    'node sha1 near a password',
    'src/auth.ts',
    lines(
      'export function hashPassword(password: string) {',
      "  return crypto.createHash('sha1').update(password).digest('hex');",
      '}',
    ),
    'crypto/weak-hash',
    2,
    'high',
  ],
  [
    'python hashlib.md5 of a password',
    'app/auth.py',
    lines('def store(user, password):', '    user.pw = hashlib.md5(password.encode()).hexdigest()'),
    'crypto/weak-hash',
    2,
    'high',
  ],
  [
    'java MessageDigest MD5',
    'src/Hash.java',
    'MessageDigest md = MessageDigest.getInstance("MD5");',
    'crypto/weak-hash',
    1,
    'low',
  ],
  ['go md5.Sum', 'pkg/h.go', 'sum := md5.Sum(data)', 'crypto/weak-hash', 1, 'low'],
  [
    'csharp SHA1.Create',
    'Lib/H.cs',
    'using var sha = SHA1.Create();',
    'crypto/weak-hash',
    1,
    'low',
  ],
  [
    'php md5 of a password',
    'web/login.php',
    '<?php $hash = md5($password);',
    'crypto/weak-hash',
    1,
    'high',
  ],
  ['ruby Digest::MD5', 'lib/h.rb', 'Digest::MD5.hexdigest(data)', 'crypto/weak-hash', 1, 'low'],
  [
    'Math.random for a token',
    'src/session.ts',
    'const token = Math.random().toString(36).slice(2);',
    'crypto/insecure-random',
    1,
    'high',
  ],
  [
    'Math.random for an id',
    'src/ids.ts',
    'const requestId = Math.random().toString(16).slice(2);',
    'crypto/insecure-random',
    1,
    'medium',
  ],
  [
    'python random for a reset code',
    'app/reset.py',
    'reset_token = "".join(random.choice(ALPHABET) for _ in range(8))',
    'crypto/insecure-random',
    1,
    'high',
  ],
  [
    'java new Random for a session id',
    'src/Ids.java',
    'String sessionId = Long.toHexString(new Random().nextLong());',
    'crypto/insecure-random',
    1,
    'high',
  ],
  [
    'go math/rand for a nonce',
    'pkg/n.go',
    lines('import "math/rand"', 'nonce := rand.Int63()'),
    'crypto/insecure-random',
    2,
    'high',
  ],
  [
    'php rand for a token next to a sleep call elsewhere',
    'web/reset.php',
    lines('<?php', '$reset_token = md5(rand());', 'sleep(1);'),
    'crypto/insecure-random',
    2,
    'high',
  ],
  [
    'php mt_rand for a token',
    'web/a.php',
    '<?php $token = mt_rand();',
    'crypto/insecure-random',
    1,
    'high',
  ],
  [
    'node aes ecb',
    'src/enc.ts',
    "const c = crypto.createCipheriv('aes-128-ecb', key, null);",
    'crypto/ecb-mode',
    1,
    'medium',
  ],
  [
    'python MODE_ECB',
    'app/enc.py',
    'cipher = AES.new(key, AES.MODE_ECB)',
    'crypto/ecb-mode',
    1,
    'medium',
  ],
  [
    'java AES with the default mode',
    'src/Enc.java',
    'Cipher c = Cipher.getInstance("AES");',
    'crypto/ecb-mode',
    1,
    'medium',
  ],
  [
    'node des cipher',
    'src/enc.ts',
    "const c = crypto.createCipheriv('des-cbc', key, iv);",
    'crypto/weak-cipher',
    1,
    'medium',
  ],
  [
    'node createCipher without iv',
    'src/enc.js',
    "const c = crypto.createCipher('aes192', password);",
    'crypto/weak-cipher',
    1,
    'medium',
  ],
  ['python ARC4', 'app/enc.py', 'c = ARC4.new(key)', 'crypto/weak-cipher', 1, 'medium'],
  [
    'java DESede',
    'src/Enc.java',
    'Cipher c = Cipher.getInstance("DESede/CBC/PKCS5Padding");',
    'crypto/weak-cipher',
    1,
    'medium',
  ],
  ['go rc4', 'pkg/e.go', 'c, _ := rc4.NewCipher(key)', 'crypto/weak-cipher', 1, 'medium'],
];

const negatives: NegativeCase[] = [
  // A random delay after a failed login: the next line names the password, the value guards nothing.
  [
    'php random sleep after a failed login',
    'web/login.php',
    lines(
      '<?php',
      '  sleep( rand( 0, 3 ) );',
      '  $html .= "<pre>Username and/or password incorrect.</pre>";',
    ),
    'crypto/insecure-random',
  ],
  [
    'js retry jitter near a token',
    'src/retry.ts',
    lines('setTimeout(retry, 250 + Math.random() * 500);', 'refreshToken(session);'),
    'crypto/insecure-random',
  ],
  [
    'go sleep jitter near a session',
    'pkg/poll.go',
    lines(
      'import "math/rand"',
      'time.Sleep(time.Duration(rand.Intn(100)) * time.Millisecond)',
      'renewSession(s)',
    ),
    'crypto/insecure-random',
  ],
  [
    'python backoff near a token',
    'app/poll.py',
    lines('time.sleep(random.uniform(0, 2))', 'token = fetch_token()'),
    'crypto/insecure-random',
  ],
  ['sha256', 'src/a.ts', "createHash('sha256').update(x)", 'crypto/weak-hash'],
  [
    'python md5 not used for security',
    'a.py',
    'h = hashlib.md5(data, usedforsecurity=False)',
    'crypto/weak-hash',
  ],
  [
    'Math.random for an animation',
    'src/anim.ts',
    'const hue = Math.random() * 360;',
    'crypto/insecure-random',
  ],
  [
    'Math.random for a jitter delay',
    'src/retry.ts',
    'await sleep(base + Math.random() * 100);',
    'crypto/insecure-random',
  ],
  [
    'a token line next to Math.random',
    'src/a.ts',
    lines('const token = crypto.randomUUID();', 'const jitter = Math.random();'),
    'crypto/insecure-random',
  ],
  [
    'python random for sampling',
    'a.py',
    'batch = random.sample(items, 10)',
    'crypto/insecure-random',
  ],
  [
    'python SystemRandom',
    'a.py',
    'token = random.SystemRandom().choice(ALPHABET)',
    'crypto/insecure-random',
  ],
  [
    'go crypto/rand',
    'a.go',
    lines('import "crypto/rand"', 'rand.Read(nonce)'),
    'crypto/insecure-random',
  ],
  ['aes gcm', 'src/a.ts', "crypto.createCipheriv('aes-256-gcm', key, iv)", 'crypto/ecb-mode'],
  ['java AES/GCM', 'src/A.java', 'Cipher.getInstance("AES/GCM/NoPadding")', 'crypto/ecb-mode'],
  ['ECB as an unrelated code', 'data/codes.pl', 'EC8\tECB\tTone_Mark', 'crypto/ecb-mode'],
  [
    'aes-256-cbc is not a weak cipher',
    'src/a.ts',
    "crypto.createCipheriv('aes-256-cbc', key, iv)",
    'crypto/weak-cipher',
  ],
];

describe('weak crypto and randomness rules', () => {
  it.each(positives)('%s', (_label, path, code, ruleId, line, severity) => {
    expectHint(path, code, ruleId, line, severity);
  });
  it.each(negatives)('near miss: %s', (_label, path, code, ruleId) => {
    expectNoHint(path, code, ruleId);
  });
});
