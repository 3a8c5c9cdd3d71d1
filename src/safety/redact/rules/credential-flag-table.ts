// One row per command-line tool that takes a password, key or token as an argument: the command
// names (the last segment of a path), a subcommand that must follow, and its credential flags.
// Facts from each tool's manual; a flag's value may be glued (`-psecret`), the next word
// (`-p secret`) or after `=` (`--password=secret`), and only part of it may be the secret.

/** How a flag carries its value. */
export type FlagValueForm =
  /** `-psecret` only (mysql's `-p`: `-p dbname` prompts and names a database). */
  | 'glued'
  /** `-storepass secret` only. */
  | 'next'
  /** `-p secret`, `-psecret`, `-p=secret`. */
  | 'next-or-glued'
  /** `--password secret` or `--password=secret`. */
  | 'next-or-equals'
  /** `--password=secret` only. */
  | 'equals';

/** Which part of the value is the secret. */
export type SecretPart =
  | 'whole'
  /** `user%password` (Samba). */
  | 'after-percent'
  /** `user,password` (lftp). */
  | 'after-comma'
  /** `pass:secret` (OpenSSL); `env:VAR` and `file:path` name where the secret is, not it. */
  | 'after-pass-prefix';

export interface CredentialFlag {
  name: string;
  form: FlagValueForm;
  part?: SecretPart;
}

export interface CredentialFlagRow {
  /** Lowercase command names. */
  commands: readonly string[];
  /** Words one of which must come before the flags (`docker login`, `helm registry login`). */
  subcommands?: readonly string[];
  flags: readonly CredentialFlag[];
  /** `htpasswd -b file user password`: the password is the last of these positional words. */
  batchPassword?: { flag: string; positionals: number; withoutFile: string };
}

const glued = (name: string): CredentialFlag => ({ name, form: 'glued' });
const short = (name: string, part?: SecretPart): CredentialFlag => ({
  name,
  form: 'next-or-glued',
  ...(part && { part }),
});
const long = (name: string, part?: SecretPart): CredentialFlag => ({
  name,
  form: 'next-or-equals',
  ...(part && { part }),
});
const equals = (name: string): CredentialFlag => ({ name, form: 'equals' });
const next = (name: string, part?: SecretPart): CredentialFlag => ({
  name,
  form: 'next',
  ...(part && { part }),
});

const MYSQL_CLIENTS = [
  'mysql',
  'mysqldump',
  'mysqladmin',
  'mysqlimport',
  'mysqlcheck',
  'mysqlshow',
  'mysqlslap',
  'mysqlbinlog',
  'mysqlpump',
  'mysqlsh',
  'mariadb',
  'mariadb-dump',
  'mariadb-admin',
  'mariadb-import',
  'mariadb-check',
];
const MONGO_CLIENTS = [
  'mongo',
  'mongosh',
  'mongodump',
  'mongorestore',
  'mongoexport',
  'mongoimport',
  'mongostat',
  'mongotop',
  'mongofiles',
];
const REGISTRY_CLIENTS = [
  'docker',
  'podman',
  'nerdctl',
  'buildah',
  'skopeo',
  'oras',
  'helm',
  'crane',
];
const LDAP_CLIENTS = [
  'ldapsearch',
  'ldapmodify',
  'ldapadd',
  'ldapdelete',
  'ldapwhoami',
  'ldapcompare',
  'ldapmodrdn',
  'ldapexop',
];
const SAMBA_CLIENTS = ['smbclient', 'rpcclient', 'smbget', 'smbcacls', 'smbmap', 'smbcquotas'];
const KEYTOOL_FLAGS = [
  'storepass',
  'keypass',
  'srcstorepass',
  'deststorepass',
  'srckeypass',
  'destkeypass',
  'new',
].map((name) => next(`-${name}`));

export const CREDENTIAL_FLAG_TABLE: readonly CredentialFlagRow[] = [
  { commands: MYSQL_CLIENTS, flags: [glued('-p'), long('--password')] },
  { commands: MONGO_CLIENTS, flags: [next('-p'), long('--password')] },
  {
    commands: REGISTRY_CLIENTS,
    subcommands: ['login', 'add'],
    flags: [next('-p'), long('--password'), long('--registry-password')],
  },
  { commands: ['redis-cli'], flags: [next('-a'), long('--pass'), long('--user-pass')] },
  { commands: ['redis-server'], flags: [long('--requirepass'), long('--masterauth')] },
  { commands: ['sshpass'], flags: [short('-p')] },
  { commands: ['keytool', 'jarsigner'], flags: KEYTOOL_FLAGS },
  {
    commands: ['openssl'],
    flags: [
      next('-pass', 'after-pass-prefix'),
      next('-passin', 'after-pass-prefix'),
      next('-passout', 'after-pass-prefix'),
      next('-password', 'after-pass-prefix'),
      next('-k'),
    ],
  },
  { commands: LDAP_CLIENTS, flags: [short('-w')] },
  // ldappasswd's `-s` is the new password and `-a` the old one (ldapsearch's are scope and deref).
  { commands: ['ldappasswd'], flags: [short('-w'), short('-s'), short('-a')] },
  {
    commands: SAMBA_CLIENTS,
    flags: [short('-U', 'after-percent'), long('--user', 'after-percent'), long('--password')],
  },
  {
    commands: ['htpasswd'],
    flags: [],
    batchPassword: { flag: 'b', positionals: 3, withoutFile: 'n' },
  },
  {
    commands: ['wget'],
    flags: [
      equals('--password'),
      equals('--http-password'),
      equals('--ftp-password'),
      equals('--proxy-password'),
    ],
  },
  { commands: ['sqlcmd', 'bcp', 'osql'], flags: [short('-P')] },
  {
    commands: ['mosquitto_pub', 'mosquitto_sub', 'mosquitto_rr'],
    flags: [short('-P'), long('--pw')],
  },
  { commands: ['ipmitool'], flags: [next('-P')] },
  { commands: ['zip', 'unzip'], flags: [next('-P'), long('--password')] },
  { commands: ['7z', '7za', '7zz', 'rar', 'unrar'], flags: [glued('-p')] },
  { commands: ['gpg', 'gpg2'], flags: [long('--passphrase')] },
  { commands: ['ssh-keygen'], flags: [short('-N'), short('-P')] },
  { commands: ['twine'], flags: [next('-p'), long('--password')] },
  { commands: ['svn'], flags: [long('--password')] },
  { commands: ['lftp'], flags: [short('-u', 'after-comma'), long('--user', 'after-comma')] },
  {
    commands: ['az', 'oc', 'cf'],
    subcommands: ['login'],
    flags: [next('-p'), long('--password'), long('--token')],
  },
  { commands: ['kubectl'], flags: [long('--token'), long('--password')] },
];

// Environment variables a tool or an official container image reads its password from, set before a
// command, exported, in an env list or a compose `environment:` map: the name says the value is one.
// From each tool's manual (libpq, the MySQL client, sshpass -e, redis-cli, sqlcmd, BorgBackup,
// restic) and each image's documented variables (Docker Official Images: postgres, mysql, mariadb,
// mongo, rabbitmq, elasticsearch; minio, grafana, pgadmin4, keycloak). Any other upper-case name
// ending in a password word is read by the generic rule the same way (`PASSWORD_VARIABLE_NAME`).
export const PASSWORD_VARIABLES: readonly string[] = [
  'PGPASSWORD',
  'MYSQL_PWD',
  'SSHPASS',
  'REDISCLI_AUTH',
  'SQLCMDPASSWORD',
  'BORG_PASSPHRASE',
  'RESTIC_PASSWORD',
  'POSTGRES_PASSWORD',
  'MYSQL_ROOT_PASSWORD',
  'MYSQL_PASSWORD',
  'MARIADB_ROOT_PASSWORD',
  'MARIADB_PASSWORD',
  'MONGO_INITDB_ROOT_PASSWORD',
  'RABBITMQ_DEFAULT_PASS',
  'ELASTIC_PASSWORD',
  'MINIO_ROOT_PASSWORD',
  'GF_SECURITY_ADMIN_PASSWORD',
  'PGADMIN_DEFAULT_PASSWORD',
  'KEYCLOAK_ADMIN_PASSWORD',
  'KC_BOOTSTRAP_ADMIN_PASSWORD',
];
