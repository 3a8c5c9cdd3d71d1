import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isSecretBearingFile } from '../../src/safety/secret-files.js';
import { createSecretFactory, type SecretFactory } from './secret-factory.js';

/** A secret planted in a fixture repository: where it is, and which rule must catch it. */
export interface PlantedSecret {
  value: string;
  /** The kind id from PLANTED_SECRET_KINDS. */
  kind: string;
  /** The redactor rule id expected to catch it, or `secret-file` inside a secret-bearing file. */
  rule: string;
  /** Workspace-relative POSIX path. */
  path: string;
  /** 1-based line where the value starts. */
  line: number;
  /** Whether the file is secret-bearing (never read by the audit, reported as a file). */
  isSecretFile: boolean;
}

export interface PlantedSecretKind {
  kind: string;
  /** The redactor rule that catches this kind outside a secret-bearing file. */
  rule: string;
  make: (factory: SecretFactory) => string;
}

/** Every kind of secret the fixture plants. */
export const PLANTED_SECRET_KINDS = [
  { kind: 'aws-access-key-id', rule: 'aws-access-key-id', make: (f) => f.awsAccessKeyId() },
  { kind: 'aws-session-key-id', rule: 'aws-access-key-id', make: (f) => f.awsSessionKeyId() },
  {
    kind: 'aws-secret-access-key',
    rule: 'aws-secret-access-key',
    make: (f) => f.awsSecretAccessKey(),
  },
  { kind: 'github-classic-pat', rule: 'github-token', make: (f) => f.githubToken('p') },
  { kind: 'github-oauth-token', rule: 'github-token', make: (f) => f.githubToken('o') },
  { kind: 'github-user-token', rule: 'github-token', make: (f) => f.githubToken('u') },
  { kind: 'github-app-token', rule: 'github-token', make: (f) => f.githubToken('s') },
  { kind: 'github-refresh-token', rule: 'github-token', make: (f) => f.githubToken('r') },
  { kind: 'github-fine-grained-pat', rule: 'github-token', make: (f) => f.githubFineGrained() },
  { kind: 'gitlab-pat', rule: 'gitlab-token', make: (f) => f.gitlabToken() },
  { kind: 'slack-bot-token', rule: 'slack-token', make: (f) => f.slackBotToken() },
  { kind: 'slack-user-token', rule: 'slack-token', make: (f) => f.slackUserToken() },
  { kind: 'slack-webhook-url', rule: 'slack-webhook-url', make: (f) => f.slackWebhook() },
  { kind: 'stripe-live-secret-key', rule: 'stripe-live-key', make: (f) => f.stripeLive('s') },
  { kind: 'stripe-live-restricted-key', rule: 'stripe-live-key', make: (f) => f.stripeLive('r') },
  { kind: 'anthropic-api-key', rule: 'anthropic-api-key', make: (f) => f.anthropicKey() },
  { kind: 'openai-project-key', rule: 'openai-api-key', make: (f) => f.openaiProjectKey() },
  { kind: 'openai-legacy-key', rule: 'openai-api-key', make: (f) => f.openaiLegacyKey() },
  { kind: 'google-api-key', rule: 'google-api-key', make: (f) => f.googleApiKey() },
  {
    kind: 'gcp-service-account-key',
    rule: 'gcp-service-account',
    make: (f) => `${f.pkcs8PrivateKey().replaceAll('\n', '\\n')}\\n`,
  },
  {
    kind: 'azure-storage-account-key',
    rule: 'azure-storage-account-key',
    make: (f) => f.azureStorageKey(),
  },
  {
    kind: 'azure-shared-access-key',
    rule: 'azure-shared-access-key',
    make: (f) => f.azureSharedAccessKey(),
  },
  { kind: 'azure-sas-signature', rule: 'azure-sas-token', make: (f) => f.azureSasSignature() },
  { kind: 'npm-token', rule: 'npm-token', make: (f) => f.npmToken() },
  { kind: 'pypi-token', rule: 'pypi-token', make: (f) => f.pypiToken() },
  { kind: 'twilio-api-key-sid', rule: 'twilio-key', make: (f) => f.twilioApiKeySid() },
  { kind: 'twilio-account-sid', rule: 'twilio-key', make: (f) => f.twilioAccountSid() },
  { kind: 'sendgrid-api-key', rule: 'sendgrid-api-key', make: (f) => f.sendgridKey() },
  { kind: 'mailgun-api-key', rule: 'mailgun-api-key', make: (f) => f.mailgunKey() },
  { kind: 'jwt', rule: 'jwt', make: (f) => f.jwt() },
  { kind: 'url-password', rule: 'url-credentials', make: (f) => f.password() },
  { kind: 'rsa-private-key', rule: 'pem-private-key', make: (f) => f.rsaPrivateKey() },
  { kind: 'ec-private-key-escaped', rule: 'pem-private-key', make: (f) => f.ecPrivateKeyEscaped() },
  { kind: 'pkcs8-private-key', rule: 'pem-private-key', make: (f) => f.pkcs8PrivateKey() },
  { kind: 'openssh-private-key', rule: 'openssh-private-key', make: (f) => f.opensshPrivateKey() },
  { kind: 'pgp-private-key', rule: 'pgp-private-key', make: (f) => f.pgpPrivateKey() },
  { kind: 'generic-password', rule: 'generic-secret', make: (f) => f.password() },
  { kind: 'generic-api-key', rule: 'generic-secret', make: (f) => f.genericSecret() },
  // A Kubernetes Secret's `data:` and `stringData:` values: the manifest names them.
  { kind: 'kubernetes-secret-data', rule: 'kubernetes-secret', make: (f) => f.base64Secret() },
  { kind: 'kubernetes-string-data', rule: 'kubernetes-secret', make: (f) => f.hex(40) },
  { kind: 'generic-hex-token', rule: 'generic-secret', make: (f) => f.hex(40) },
] as const satisfies readonly PlantedSecretKind[];

export type PlantedKindId = (typeof PLANTED_SECRET_KINDS)[number]['kind'];

// One fixed seed: the same repository, byte for byte, on every run.
const FIXTURE_SEED = 0x6f79;

type Plant = (kind: PlantedKindId) => string;

interface FixtureFile {
  path: string;
  build: (plant: Plant) => string;
}

const FIXTURE_FILES: readonly FixtureFile[] = [
  {
    path: 'README.md',
    build: (s) => `# billing-service

Internal service that bills customers and notifies them.

## Local setup

Start the stack with \`docker compose up\`, then point the app at the database:

\`\`\`sh
export DATABASE_URL=postgres://billing:${s('url-password')}@localhost:5432/billing
\`\`\`

The staging smoke test still uses this key (rotate it!): \`${s('sendgrid-api-key')}\`
`,
  },
  {
    path: 'src/config/aws.ts',
    build: (s) => `import { S3Client } from '@aws-sdk/client-s3';

// Temporary credentials until the IAM role lands.
const ACCESS_KEY_ID = '${s('aws-access-key-id')}';

export const s3 = new S3Client({
  region: 'eu-west-1',
  credentials: {
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: '${s('aws-secret-access-key')}',
  },
});
`,
  },
  {
    path: 'src/integrations/github.ts',
    build: (s) => `import { Octokit } from '@octokit/rest';

// CI token, do not commit: ${s('github-classic-pat')}
export const octokit = new Octokit({ auth: '${s('github-oauth-token')}' });

export const appInstallation = {
  id: 4242,
  installationToken: "${s('github-app-token')}",
};
`,
  },
  {
    path: 'src/integrations/payments.js',
    build: (s) => `'use strict';

const Stripe = require('stripe');

const stripe = Stripe('${s('stripe-live-secret-key')}');
const reporting = Stripe(process.env.STRIPE_REPORTING_KEY || '${s('stripe-live-restricted-key')}');

module.exports = { stripe, reporting };
`,
  },
  {
    path: 'src/llm/clients.py',
    build: (s) => `import anthropic
import openai

client = anthropic.Anthropic(api_key="${s('anthropic-api-key')}")

openai.api_key = "${s('openai-legacy-key')}"
summariser = openai.OpenAI(api_key='${s('openai-project-key')}')


def settings():
    return {"password": "${s('generic-password')}", "retries": 3}
`,
  },
  {
    path: 'cmd/server/main.go',
    build: (s) => `package main

import (
	"database/sql"
	"log"
)

// legacy key, see INFRA-112: ${s('aws-access-key-id')}
const slackToken = "${s('slack-bot-token')}"

func main() {
	dbPassword := "${s('generic-password')}"
	db, err := sql.Open("postgres", "postgres://app:${s('url-password')}@db:5432/app?sslmode=disable")
	if err != nil {
		log.Fatal(err, dbPassword, slackToken)
	}
	defer db.Close()
}
`,
  },
  {
    path: 'config/settings.yaml',
    build: (s) => `server:
  port: 8080
database:
  host: db.internal
  user: billing
  password: ${s('generic-password')}
cache:
  url: redis://default:${s('url-password')}@cache.internal:6379/0
maps:
  api_key: ${s('google-api-key')}
# TODO remove before release: ${s('github-user-token')}
notifications:
  slack_webhook: ${s('slack-webhook-url')}
`,
  },
  {
    path: 'config/app.json',
    build: (s) => `{
  "name": "billing-service",
  "mail": {
    "provider": "mailgun",
    "apiKey": "${s('mailgun-api-key')}"
  },
  "analytics": {
    "api_key": "${s('generic-api-key')}",
    "endpoint": "https://analytics.internal/v1"
  },
  "slack": { "token": "${s('slack-user-token')}" }
}
`,
  },
  {
    path: 'config/database.toml',
    build: (s) => `[database]
host = "db.internal"
port = 5432
user = "billing"
password = "${s('generic-password')}"

[mongo]
uri = "mongodb+srv://reporting:${s('url-password')}@cluster0.mongodb.net/reports"
`,
  },
  {
    path: 'config/legacy.ini',
    build: (s) => `[default]
region = eu-west-1
aws_access_key_id = ${s('aws-session-key-id')}
aws_secret_access_key = ${s('aws-secret-access-key')}

[smtp]
host = smtp.internal
passwd = ${s('generic-password')}
`,
  },
  {
    path: 'config/application.properties',
    build: (s) => `spring.application.name=billing
spring.datasource.url=jdbc:postgresql://db.internal:5432/billing
spring.datasource.username=billing
spring.datasource.password=${s('generic-password')}
azure.storage.connection-string=DefaultEndpointsProtocol=https;AccountName=billingstore;AccountKey=${s('azure-storage-account-key')};EndpointSuffix=core.windows.net
app.jwt.signing-key=${s('generic-api-key')}
`,
  },
  {
    path: 'deploy/Dockerfile',
    build: (s) => `FROM node:20-slim
WORKDIR /app
ARG GITHUB_TOKEN=${s('github-refresh-token')}
ENV NPM_TOKEN=${s('npm-token')}
ENV API_TOKEN=${s('generic-hex-token')}
COPY . .
RUN npm ci --omit=dev
CMD ["node", "server.js"]
`,
  },
  {
    path: 'scripts/deploy.sh',
    build: (s) => `#!/usr/bin/env bash
set -euo pipefail

export SLACK_WEBHOOK="${s('slack-webhook-url')}"
aws configure set aws_access_key_id ${s('aws-access-key-id')} && aws configure set aws_secret_access_key ${s('aws-secret-access-key')}

curl -fsS -H "Authorization: Bearer ${s('jwt')}" https://api.internal/deploy

mkdir -p ~/.ssh
cat > ~/.ssh/deploy_key <<'KEY'
${s('openssh-private-key')}
KEY
chmod 600 ~/.ssh/deploy_key
`,
  },
  {
    path: '.env.example',
    build: (s) => `# Copy to .env and fill in.
PORT=8080
DATABASE_URL=postgres://billing:change-me@localhost:5432/billing
GITLAB_TOKEN=${s('gitlab-pat')}
SESSION_SECRET=${s('generic-api-key')}
`,
  },
  {
    path: '.env',
    build: (s) => `PORT=8080
ANTHROPIC_API_KEY=${s('anthropic-api-key')}
GITHUB_TOKEN=${s('github-classic-pat')}
DB_PASSWORD=${s('generic-password')}
`,
  },
  {
    path: 'certs/server.key',
    build: (s) => `${s('pkcs8-private-key')}\n`,
  },
  {
    path: 'deploy/gcp-service-account.json',
    build: (s) => `{
  "type": "service_account",
  "project_id": "billing-prod",
  "private_key_id": "0a1b2c3d4e5f",
  "private_key": "${s('gcp-service-account-key')}",
  "client_email": "billing@billing-prod.iam.gserviceaccount.com"
}
`,
  },
  {
    path: 'k8s/secret.yaml',
    build: (s) => `apiVersion: v1
kind: Secret
metadata:
  name: billing
type: Opaque
data:
  db-password: ${s('kubernetes-secret-data')}
stringData:
  api-token: "${s('kubernetes-string-data')}"
  github-token: ${s('github-fine-grained-pat')}
`,
  },
  {
    path: 'keys/release-signing.asc',
    build: (s) => `${s('pgp-private-key')}\n`,
  },
  {
    path: 'test/fixtures/tls.ts',
    build: (s) => `// Self-signed material for the TLS tests.
export const SERVER_KEY = \`${s('rsa-private-key')}\`;

export const CLIENT_KEY = "${s('ec-private-key-escaped')}";
`,
  },
  {
    path: 'src/Storage.cs',
    build: (s) => `namespace Billing;

public static class Storage
{
    public const string Events = "Endpoint=sb://billing.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${s('azure-shared-access-key')}";
    public const string Invoices = "https://billingstore.blob.core.windows.net/invoices?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2030-01-01T00:00:00Z&sig=${s('azure-sas-signature')}";
}
`,
  },
  {
    path: 'src/notify/sms.rb',
    build: (s) => `require 'twilio-ruby'

# Twilio credentials for the SMS fallback.
ACCOUNT_SID = '${s('twilio-account-sid')}'
API_KEY_SID = '${s('twilio-api-key-sid')}'
@client = Twilio::REST::Client.new(API_KEY_SID, ENV['TWILIO_API_SECRET'], ACCOUNT_SID)
`,
  },
  {
    path: '.github/workflows/release.yml',
    build: (s) => `name: release
on: push
jobs:
  publish:
    runs-on: ubuntu-latest
    env:
      GH_TOKEN: ${s('github-user-token')}
      TWINE_PASSWORD: ${s('pypi-token')}
    steps:
      - uses: actions/checkout@v4
      - run: npm publish
        env:
          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
`,
  },
  {
    path: 'src/auth/session.ts',
    build: (s) => `export const oauth = {
  clientId: 'billing-web',
  client_secret: '${s('generic-api-key')}',
};

// A long-lived service token for the ledger (expires 2031).
export const LEDGER_TOKEN =
  '${s('jwt')}';

export function isAdmin(password: string): boolean {
  return password === '${s('generic-password')}';
}
`,
  },
  {
    path: 'terraform/main.tf',
    build: (s) => `provider "aws" {
  region     = "eu-west-1"
  access_key = "${s('aws-access-key-id')}"
}

resource "aws_db_instance" "billing" {
  engine   = "postgres"
  username = "billing"
  password = "${s('generic-password')}"
}

variable "maps_key" {
  default = "${s('google-api-key')}"
}
`,
  },
  {
    path: 'docs/operations.md',
    build: (s) => `# Operations

Publishing uses this \`~/.pypirc\` entry:

    [pypi]
    username = __token__
    password = ${s('pypi-token')}

Queue: \`amqp://billing:${s('url-password')}@mq.internal:5672/\` and the ops bot posts with \`${s('slack-bot-token')}\`.

Webhook for incidents: ${s('slack-webhook-url')}
`,
  },
  {
    path: 'src/jobs/mailer.py',
    build: (s) => `import os

SENDGRID_API_KEY = os.environ.get("SENDGRID_API_KEY", "${s('sendgrid-api-key')}")
MAILGUN_KEY = "${s('mailgun-api-key')}"  # fallback provider
OPENAI_KEY = "${s('openai-project-key')}"; NPM = "${s('npm-token')}"
`,
  },
];

/**
 * Writes a small realistic repository with planted secrets into `dir` and returns where each one is.
 * Values come from a seeded PRNG: format-valid for their rule, distinct, the same on every run.
 */
export async function plantSecretRepo(dir: string): Promise<PlantedSecret[]> {
  const factory = createSecretFactory(FIXTURE_SEED);
  const kinds = new Map<string, PlantedSecretKind>(
    PLANTED_SECRET_KINDS.map((kind) => [kind.kind, kind]),
  );
  const seen = new Set<string>();
  const planted: PlantedSecret[] = [];
  for (const file of FIXTURE_FILES) {
    const isSecretFile = isSecretBearingFile(file.path);
    const inFile: Array<{ value: string; kind: string; rule: string }> = [];
    const content = file.build((kindId) => {
      const kind = kinds.get(kindId);
      if (kind === undefined) throw new Error(`unknown planted kind ${kindId}`);
      const value = kind.make(factory);
      if (seen.has(value)) throw new Error(`planted value repeated for ${kindId}`);
      seen.add(value);
      inFile.push({ value, kind: kindId, rule: isSecretFile ? 'secret-file' : kind.rule });
      return value;
    });
    const absolute = path.join(dir, file.path);
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, content);
    for (const { value, kind, rule } of inFile) {
      const at = content.indexOf(value);
      if (at === -1 || content.indexOf(value, at + 1) !== -1) {
        throw new Error(`planted value must occur exactly once in ${file.path}`);
      }
      const line = content.slice(0, at).split('\n').length;
      planted.push({ value, kind, rule, path: file.path, line, isSecretFile });
    }
  }
  return planted;
}
