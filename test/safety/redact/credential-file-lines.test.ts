import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { expectRedacted, expectUntouched } from '../../support/expect-redaction.js';
import { randomChars } from '../../support/vendor-token-samples.js';

// Lines of credential files (.netrc, .authinfo, .pgpass, .git-credentials, .my.cnf) found by their
// shape in any file: a README, a Dockerfile heredoc, a script that writes one, a test fixture.
// Passwords are drawn afresh on every run, some of them word-shaped, as people choose them.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const WORDS = ['correct', 'horse', 'battery', 'staple', 'orange', 'river', 'castle', 'window'];

function freshPassword(): string {
  return Math.random() < 0.5
    ? `${randomChars(ALNUM, 14)}${randomChars('0123456789', 1)}`
    : Array.from({ length: 3 }, () => WORDS[Math.floor(Math.random() * WORDS.length)]).join('') +
        randomChars('0123456789', 2);
}

console.log('credential-file lines: 5 shapes x several placements, 16 near misses');

describe('.netrc and .authinfo entries', () => {
  it('hides the password on one line, over several lines, and in a string a script writes', () => {
    for (const shape of [
      (pw: string) => `machine api.heroku.com login deploy@corp.io password ${pw}`,
      (pw: string) => `machine git.internal\n  login ci\n  password ${pw}\n`,
      (pw: string) => `default login backup password ${pw}`,
      (pw: string) => `machine imap.gmail.com login me@gmail.com password ${pw} port 993`,
      (pw: string) => `machine smtp.corp.io port 587 login bot password "${pw}"`,
      (pw: string) => `RUN echo "machine pkg.corp.io login ci password ${pw}" > /root/.netrc`,
      (pw: string) => `fh.write("machine pkg.corp.io\\nlogin ci\\npassword ${pw}\\n")`,
    ]) {
      const password = freshPassword();
      const text = shape(password);
      expectRedacted(
        text,
        password,
        'netrc-password',
        text.split('\n').findIndex((l) => l.includes(password)) + 1,
      );
    }
  });

  it('leaves variables, anonymous logins and prose alone', () => {
    expectUntouched('machine github.com login ci password $GITHUB_TOKEN');
    expectUntouched('echo "machine github.com login x password ${GH_TOKEN}" > ~/.netrc');
    expectUntouched('default login anonymous password guest@example.org');
    expectUntouched('the machine where password is kept is offline');
    expectUntouched('machine example.com login user password changeme');
    expectUntouched(`virtualmachine host login ci password`);
  });
});

describe('.pgpass lines', () => {
  it('hides the password field, with a port number or *, at any host shape', () => {
    for (const host of ['db.internal', '*', 'localhost', '10.0.3.7', 'pg-primary']) {
      const password = freshPassword();
      const port = Math.random() < 0.5 ? '*' : String(5432 + Math.floor(Math.random() * 10));
      expectRedacted(`${host}:${port}:app:app_user:${password}`, password, 'pgpass-password');
    }
    const password = freshPassword();
    const text = `cat > ~/.pgpass <<EOF\ndb.internal:5432:*:postgres:${password}\nEOF\n`;
    expectRedacted(text, password, 'pgpass-password', 2);
  });

  it('leaves other colon-separated lines alone', () => {
    expectUntouched('root:x:0:0:root:/root:/bin/bash');
    expectUntouched('time 10:20:30:40:50');
    expectUntouched('00:1a:2b:3c:4d');
    expectUntouched('fe80:0:0:0:0202:b3ff:fe1e:8329');
    expectUntouched('localhost:5432:app:app:$PGPASS');
    expectUntouched('{"a":1,"b":2,"c":3,"d":4}');
    expectUntouched(`db.internal:5432:app:app:password`);
  });
});

describe('.git-credentials lines', () => {
  it('hides the password of a URL alone on its line, word-shaped included', () => {
    const password = freshPassword();
    const text = `https://alice:${password}@gitlab.corp.io\n`;
    const result = createRedactor().redact(text);
    expect(result.text).not.toContain(password);
    expect(result.redactions.map((r) => r.rule)).toEqual(['git-credentials']);
    const token = randomChars(ALNUM, 30);
    expectRedacted(`  https://x-access-token:${token}@github.com`, token, 'git-credentials');
  });

  it('leaves example hosts, variables and self-naming passwords alone', () => {
    expectUntouched(`https://john:${freshPassword()}@example.org/`);
    expectUntouched('https://ci:${CI_JOB_TOKEN}@gitlab.com');
    expectUntouched('https://admin:mysecretpassword@git.corp.io');
  });
});

describe('.my.cnf option groups', () => {
  it('hides password= under [client], [mysql], [mysqldump] and [client-mariadb]', () => {
    for (const group of ['client', 'mysql', 'mysqldump', 'client-mariadb']) {
      const password = freshPassword();
      const quoted = Math.random() < 0.5 ? `"${password}"` : password;
      const text = `[${group}]\nuser = app\npassword = ${quoted}\nhost = db.internal\n`;
      expectRedacted(text, password, 'mysql-option-file', 3);
    }
  });

  it('leaves other INI groups and templated values alone', () => {
    expectUntouched('[client]\nuser = app\npassword = ${MYSQL_PASSWORD}\n');
    expectUntouched(`[server]\nlabel = ${WORDS.join('')}\n`);
    expectUntouched('[client]\npassword = changeme\n');
  });
});
