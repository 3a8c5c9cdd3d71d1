import { describe, expect, it } from 'vitest';
import { HOME_SECRET_FILES, isSecretBearingFile } from '../../src/safety/secret-files.js';

const secretBearing = [
  '.env',
  'config/.env.production',
  '.envrc',
  'sub/.envrc',
  '.pgpass',
  '.my.cnf',
  'infra/terraform.tfvars',
  'infra/prod.auto.tfvars',
  'infra/prod.tfvars.json',
  'infra/terraform.tfstate',
  'web/.htpasswd',
  '.git-credentials',
  '.npmrc',
  '.netrc',
  '.pypirc',
  '.dockercfg',
  '.vault-token',
  'home/.docker/config.json',
  '.docker/config.json',
  '.config/git/credentials',
  'backup/.aws/credentials',
  '.cargo/credentials.toml',
  'vpn/client.ovpn',
  'android/release.keystore',
  'vault.kdbx',
  'certs/server.key',
  'certs/server.pem',
  'C:\\Users\\me\\.git-credentials',
  'id_ed25519',
];

// Look-alikes that are ordinary project files: a false positive here is a false audit finding.
const ordinary = [
  '.env.example',
  'config.json',
  'docker/config.json',
  'app/.docker-config.json',
  'credentials.ts',
  'aws/credentials.md',
  'main.tf',
  'variables.tf',
  'monkey.ts',
  '.yarnrc.yml',
  'gradle.properties',
  'config/secrets.yml',
  'deploy/gcp-service-account.json',
  'envrc.md',
  '.tfvars-notes.md',
];

describe('isSecretBearingFile', () => {
  it.each(secretBearing)('%s is secret-bearing', (file) => {
    expect(isSecretBearingFile(file)).toBe(true);
  });

  it.each(ordinary)('%s is an ordinary file', (file) => {
    expect(isSecretBearingFile(file)).toBe(false);
  });

  it('every file the sandbox hides in HOME is secret-bearing by the same list', () => {
    for (const file of HOME_SECRET_FILES) expect(isSecretBearingFile(file)).toBe(true);
    expect(HOME_SECRET_FILES).toEqual(
      expect.arrayContaining(['.npmrc', '.pypirc', '.netrc', '.git-credentials', '.pgpass']),
    );
  });

  // Every secret-bearing name, with every backup and editor suffix, in a folder and at the root.
  const BACKUP_FORMS: ReadonlyArray<(name: string) => string> = [
    ...['.bak', '~', '.orig', '.old', '.save', '.swp', '.tmp', '.backup', '.~1~'].map(
      (suffix) => (name: string) => `${name}${suffix}`,
    ),
    (name) => `${name}.bak~`,
    (name) => `#${name}#`,
  ];

  it('every secret-bearing name is secret-bearing with each backup and editor suffix', () => {
    let count = 0;
    for (const file of secretBearing) {
      for (const form of BACKUP_FORMS) {
        const slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1;
        const backup = `${file.slice(0, slash)}${form(file.slice(slash))}`;
        expect(isSecretBearingFile(backup), backup).toBe(true);
        count += 1;
      }
    }
    console.log(`secret-bearing backups: ${count} cases`);
  });

  it("vim's swap file of a name without a dot holds a dot before it", () => {
    expect(isSecretBearingFile('home/.id_rsa.swp')).toBe(true);
    expect(isSecretBearingFile('.id_ed25519.swo')).toBe(true);
    expect(isSecretBearingFile('keys/.kubeconfig.swp')).toBe(true);
  });

  it('backups of ordinary files stay ordinary', () => {
    for (const file of ordinary) {
      if (file.startsWith('.env.')) continue;
      for (const form of BACKUP_FORMS)
        expect(isSecretBearingFile(form(file)), form(file)).toBe(false);
    }
    for (const file of [
      'notes.bak',
      '.bak',
      '~',
      'main.ts.orig',
      '.old',
      'x.swp',
      '.swp',
      'id.bak',
    ]) {
      expect(isSecretBearingFile(file), file).toBe(false);
    }
  });

  it('a copy under a name no backup list names is secret-bearing; public keys and templates are not', () => {
    // Suffixes drawn afresh: the rule must not rest on a list of the ways people copy a file.
    const fresh = () => Math.random().toString(36).slice(2, 8);
    for (const file of [
      `.netrc.${fresh()}`,
      '.netrc.2024-06-01',
      `.pgpass-${fresh()}`,
      `.git-credentials_${fresh()}`,
      'home/ci/.npmrc.prod',
      `id_rsa_${fresh()}`,
      'keys/id_ed25519-work',
      'deploy/kubeconfig.yaml',
      `credentials.json.${fresh()}`,
    ]) {
      expect(isSecretBearingFile(file), file).toBe(true);
    }
    for (const file of [
      'id_rsa.pub',
      'keys/id_ed25519.pub',
      '.npmrc.example',
      '.envrc.template',
      'credentials.json.sample',
      '.pgpass.dist',
      'id_rsakey.md',
      'kubeconfigs.md',
    ]) {
      expect(isSecretBearingFile(file), file).toBe(false);
    }
  });

  it('counts its cases', () => {
    console.log(`secret-bearing files: ${secretBearing.length + ordinary.length + 1} cases`);
  });
});
