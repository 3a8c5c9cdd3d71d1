import { describe, it } from 'vitest';
import { expectRedacted, expectUntouched } from '../../support/expect-redaction.js';
import { createSecretFactory } from '../../support/secret-factory.js';

// Values come from a seeded factory: format-valid, never literal in this file.
const f = createSecretFactory(20_240_601);
// Prefixes are joined so the file holds nothing a scanner flags.
const j = (...parts: string[]): string => parts.join('');

describe('aws-access-key-id', () => {
  it('redacts AKIA and ASIA ids in code, config and URLs', () => {
    const akia = f.awsAccessKeyId();
    expectRedacted(`const id = "${akia}";`, akia, 'aws-access-key-id');
    const asia = f.awsSessionKeyId();
    expectRedacted(`[default]\naws_access_key_id = ${asia}\n`, asia, 'aws-access-key-id', 2);
    const another = f.awsAccessKeyId();
    expectRedacted(
      `https://s3.amazonaws.com/b/o?AWSAccessKeyId=${another}&Expires=1`,
      another,
      'aws-access-key-id',
    );
  });

  it('redacts an id glued to a word before it', () => {
    const glued = f.awsAccessKeyId();
    expectRedacted(`blob = X${glued}`, glued, 'aws-access-key-id');
  });

  it('leaves the documentation example and stand-ins alone', () => {
    expectUntouched(`aws_access_key_id = ${j('AKIA', 'IOSFODNN7', 'EXAMPLE')}`);
    expectUntouched(`id = ${j('AKIA', '0'.repeat(16))}`);
    expectUntouched('const ASIA_PACIFIC_REGIONS = [];');
  });
});

describe('aws-secret-access-key', () => {
  it('redacts a 40-character key assigned to an AWS secret name in every common form', () => {
    for (const template of [
      (v: string) => `aws_secret_access_key = ${v}`,
      (v: string) => `AWS_SECRET_ACCESS_KEY=${v}`,
      (v: string) => `{"SecretAccessKey": "${v}"}`,
      (v: string) => `  secretAccessKey: '${v}',`,
      (v: string) => `aws configure set aws_secret_access_key ${v}`,
    ]) {
      const value = f.awsSecretAccessKey();
      expectRedacted(template(value), value, 'aws-secret-access-key');
    }
  });

  it('leaves the documentation example, variables and wrong lengths alone', () => {
    expectUntouched(`aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY${j('EXAMPLE', 'KEY')}`);
    expectUntouched('aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}');
    expectUntouched(`aws_secret_access_key = ${'A'.repeat(40)}`);
  });
});

describe('github-token', () => {
  it('redacts every GitHub token prefix', () => {
    for (const kind of ['p', 'o', 'u', 's', 'r'] as const) {
      const token = f.githubToken(kind);
      expectRedacted(`// deploy with ${token}`, token, 'github-token');
    }
    const fineGrained = f.githubFineGrained();
    expectRedacted(`env:\n  GH_TOKEN: ${fineGrained}\n`, fineGrained, 'github-token', 2);
  });

  it('names a token inside a clone URL as a GitHub token, not a URL password', () => {
    const token = f.githubToken('s');
    expectRedacted(
      `git clone https://x-access-token:${token}@github.com/o/r.git`,
      token,
      'github-token',
    );
  });

  it('leaves placeholders and short runs alone', () => {
    expectUntouched(`token: ${j('gh', 'p_', 'x'.repeat(36))}`);
    expectUntouched(`token: ${j('gh', 'p_', 'abc123')}`);
    expectUntouched('see the ghp_ prefix in the docs');
  });
});

describe('gitlab-token', () => {
  it('redacts glpat- tokens in env files and remote URLs', () => {
    const token = f.gitlabToken();
    expectRedacted(`GITLAB_TOKEN=${token}`, token, 'gitlab-token');
    const other = f.gitlabToken();
    expectRedacted(`url = https://oauth2:${other}@gitlab.com/g/p.git`, other, 'gitlab-token');
  });

  it('leaves stand-ins alone', () => {
    expectUntouched(`GITLAB_TOKEN=${j('gl', 'pat-', 'x'.repeat(20))}`);
  });
});

describe('slack-token and slack-webhook-url', () => {
  it('redacts bot and user tokens', () => {
    const bot = f.slackBotToken();
    expectRedacted(`const slack = new WebClient('${bot}');`, bot, 'slack-token');
    const user = f.slackUserToken();
    expectRedacted(`{"slack": {"token": "${user}"}}`, user, 'slack-token');
  });

  it('redacts webhook URLs from the host on', () => {
    const hook = f.slackWebhook();
    expectRedacted(`SLACK_WEBHOOK="${hook}"`, hook.slice('https://'.length), 'slack-webhook-url');
  });

  it('leaves documentation stand-ins alone', () => {
    expectUntouched(`token: ${j('xo', 'xb-', 'your-bot-token-here')}`);
    expectUntouched(`token: ${j('xo', 'xb-', '123')}`);
  });
});

describe('stripe-live-key', () => {
  it('redacts live secret and restricted keys', () => {
    const secret = f.stripeLive('s');
    expectRedacted(`const stripe = Stripe('${secret}');`, secret, 'stripe-live-key');
    const restricted = f.stripeLive('r');
    expectRedacted(`STRIPE_KEY=${restricted}`, restricted, 'stripe-live-key');
  });

  it('redacts test-mode keys too (they open test data) and leaves stand-ins alone', () => {
    const testKey = j('sk', '_test_', f.base62(24));
    expectRedacted(`Stripe('${testKey}')`, testKey, 'stripe-key');
    expectUntouched(`Stripe('${j('sk', '_live_', 'x'.repeat(24))}')`);
    expectUntouched(`Stripe('${j('sk', '_test_', 'x'.repeat(24))}')`);
  });
});

describe('anthropic-api-key and openai-api-key', () => {
  it('redacts Anthropic keys', () => {
    const key = f.anthropicKey();
    expectRedacted(`client = anthropic.Anthropic(api_key="${key}")`, key, 'anthropic-api-key');
  });

  it('redacts OpenAI project and legacy keys', () => {
    const project = f.openaiProjectKey();
    expectRedacted(`OPENAI_API_KEY=${project}`, project, 'openai-api-key');
    const legacy = f.openaiLegacyKey();
    expectRedacted(`openai.api_key = "${legacy}"`, legacy, 'openai-api-key');
  });

  it('does not take words, low-entropy runs or sequences after sk- for keys', () => {
    expectUntouched('const task = "task-runner"; const disk = "sk-learn-is-a-python-library";');
    expectUntouched(`key = "${j('sk-', 'a'.repeat(48))}"`);
    expectUntouched(`key = "${j('sk-', '1234567890abcdefghijklmnopqrstuvwxyzABCDEF')}"`);
    expectUntouched(`key = "${j('sk-', 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv')}"`);
  });
});

describe('google-api-key', () => {
  it('redacts AIza keys in HTML and YAML', () => {
    const key = f.googleApiKey();
    expectRedacted(
      `<script src="https://maps.googleapis.com/maps/api/js?key=${key}"></script>`,
      key,
      'google-api-key',
    );
    const other = f.googleApiKey();
    expectRedacted(`maps:\n  api_key: ${other}`, other, 'google-api-key', 2);
  });

  it('leaves a too-short key alone', () => {
    expectUntouched(`ref ${f.googleApiKey().slice(0, 38)}`);
  });
});

describe('azure rules', () => {
  it('redacts the AccountKey of a storage connection string', () => {
    const key = f.azureStorageKey();
    expectRedacted(
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${key};EndpointSuffix=core.windows.net`,
      key,
      'azure-storage-account-key',
    );
  });

  it('redacts a SharedAccessKey and a SAS signature', () => {
    const shared = f.azureSharedAccessKey();
    expectRedacted(
      `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${shared}`,
      shared,
      'azure-shared-access-key',
    );
    const signature = f.azureSasSignature();
    expectRedacted(
      `https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=${signature}`,
      signature,
      'azure-sas-token',
    );
  });

  it('leaves placeholders alone', () => {
    expectUntouched(
      'AccountName=acct;AccountKey=<your-account-key>;EndpointSuffix=core.windows.net',
    );
    expectUntouched('https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=abc');
  });
});

describe('npm-token and pypi-token', () => {
  it('redacts npm tokens in .npmrc lines and PyPI tokens in .pypirc lines', () => {
    const npm = f.npmToken();
    expectRedacted(`//registry.npmjs.org/:_authToken=${npm}`, npm, 'npm-token');
    const pypi = f.pypiToken();
    expectRedacted(`[pypi]\nusername = __token__\npassword = ${pypi}\n`, pypi, 'pypi-token', 3);
  });

  it('leaves npm_ variable names alone', () => {
    expectUntouched('const cache = process.env.npm_config_cache ?? npm_package_json;');
  });
});

describe('twilio-key', () => {
  it('redacts API key and account SIDs within a few lines of the word twilio', () => {
    const keySid = f.twilioApiKeySid();
    const accountSid = f.twilioAccountSid();
    const text = `const twilio = require('twilio');\n\nconst keySid = '${keySid}';\nconst accountSid = '${accountSid}';\n`;
    expectRedacted(text, keySid, 'twilio-key', 3);
    expectRedacted(text, accountSid, 'twilio-key', 4);
  });

  it('leaves the same shape alone far from any mention of twilio', () => {
    expectUntouched(`// twilio\n${'\n'.repeat(10)}const hash = '${f.twilioApiKeySid()}';\n`);
  });
});

describe('sendgrid-api-key and mailgun-api-key', () => {
  it('redacts SendGrid and Mailgun keys', () => {
    const sendgrid = f.sendgridKey();
    expectRedacted(`SENDGRID_API_KEY = "${sendgrid}"`, sendgrid, 'sendgrid-api-key');
    const mailgun = f.mailgunKey();
    expectRedacted(`auth: { api_key: '${mailgun}' }`, mailgun, 'mailgun-api-key');
  });

  it('redacts a Mailgun key glued to a word on either side', () => {
    const before = f.mailgunKey();
    expectRedacted(`const id = 'X${before}';`, before, 'mailgun-api-key');
    const after = f.mailgunKey();
    expectRedacted(`const id = '${after}_v2';`, after, 'mailgun-api-key');
  });

  it('leaves look-alikes alone', () => {
    expectUntouched(`const msg = "${j('S', 'G.', 'short.parts')}";`);
    expectUntouched('monkey-patch the module; hotkey-binding; const key-value = 1;');
    expectUntouched(`id = ${j('ke', 'y-', '0'.repeat(32))}`);
    // Glued on both sides, a run is not a key: a hash inside a longer word.
    expectUntouched(`const id = 'mon${j('ke', 'y-', f.hex(32))}abc';`);
  });
});

describe('jwt', () => {
  it('redacts tokens in headers, cookies and code', () => {
    const token = f.jwt();
    expectRedacted(`curl -H "Authorization: Bearer ${token}" https://api`, token, 'jwt');
    const other = f.jwt();
    expectRedacted(`document.cookie = "session=${other}; path=/";`, other, 'jwt');
  });

  it('leaves the jwt.io example, non-JOSE dotted base64 and single segments alone', () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const header = encode({ alg: 'HS256', typ: 'JWT' });
    expectUntouched(
      `token = "${header}.${encode({ sub: '1234567890', name: 'John Doe', iat: 1516239022 })}.${f.base62(43)}"`,
    );
    expectUntouched(`x = "${encode({ version: 3 })}.${encode({ sources: [] })}.abc"`);
    expectUntouched(
      `//# sourceMappingURL=data:application/json;base64,${encode({ version: 3, mappings: 'AAAA' })}`,
    );
  });
});

describe('telegram-bot-token', () => {
  const DIGITS = '0123456789';
  const URLSAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  const botToken = (): string => `${f.chars(DIGITS, 9)}:${'AA'}${f.chars(URLSAFE, 33)}`;

  it('redacts a fresh bot token alone, in an assignment and in a URL path', () => {
    const alone = botToken();
    expectRedacted(alone, alone, 'telegram-bot-token');
    const assigned = botToken();
    expectRedacted(`BOT = "${assigned}"`, assigned, 'telegram-bot-token');
    const inUrl = botToken();
    expectRedacted(`https://api.telegram.org/bot${inUrl}/getMe`, inUrl, 'telegram-bot-token');
  });

  it('leaves a short id, a short secret part and a run of one letter alone', () => {
    expectUntouched(`see ${f.chars(DIGITS, 5)}:AA${f.chars(URLSAFE, 33)} here`);
    expectUntouched(`see ${f.chars(DIGITS, 9)}:AA${f.chars(URLSAFE, 20)} here`);
    expectUntouched(`see ${f.chars(DIGITS, 9)}:AA${'a'.repeat(33)} here`);
  });
});
