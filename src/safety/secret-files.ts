/**
 * Dotfiles whose whole purpose is to hold credentials, wherever they are: registry and package
 * logins, netrc-style password lists, direnv's `.envrc` (it exports environment, keys included),
 * database client passwords, `.htpasswd` hashes. They also live at the top of HOME, so the
 * sandbox hides each there. `.yarnrc*`, `.m2/settings.xml` and `gradle.properties` are left out:
 * committed copies are ordinary project config, so only the sandbox hides them (in HOME).
 */
const SECRET_DOTFILES = [
  '.npmrc',
  '.pypirc',
  '.netrc',
  '.authinfo',
  '.git-credentials',
  '.pgpass',
  '.my.cnf',
  '.envrc',
  '.htpasswd',
  '.dockercfg',
  '.vault-token',
  '.s3cfg',
  '.boto',
] as const;

/** Other whole names of key and credential files: SSH private keys, cloud key files. */
const SECRET_FILE_NAMES = new Set<string>([
  ...SECRET_DOTFILES,
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'credentials.json',
  'kubeconfig',
]);

/**
 * Endings of key stores and files that hold values rather than code: Terraform variable files and
 * state, OpenVPN profiles (they embed the client key), Java/Android keystores, KeePass databases.
 * `secrets.yml` and `service-account*.json` are not here: both are often committed as templates
 * reading the environment, and the redactor still catches a key inside them.
 */
const SECRET_FILE_ENDINGS = [
  '.pem',
  '.key',
  '.p12',
  '.pfx',
  '.jks',
  '.keystore',
  '.kdbx',
  '.tfstate',
  '.tfvars',
  '.tfvars.json',
  '.ovpn',
];

/** Files known by their folder too: a `config.json` is only a secret inside `.docker/`. */
const SECRET_FILE_PATHS = [
  '.docker/config.json',
  '.config/git/credentials',
  '.aws/credentials',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
] as const;

// Templates that document variables without holding them are read (and still redacted).
const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template']);

/**
 * Copies editors, tools and people leave beside a file, which hold the same secret: `.netrc.bak`,
 * `.pgpass~`, `id_rsa.orig`, `terraform.tfstate.backup`, GNU numbered `.~1~`, vim's swap file
 * (`.pgpass.swp`, `.id_rsa.swp`: a dot before a name that has none) and Emacs' `#.netrc#`.
 */
const BACKUP_SUFFIX = /(?:\.(?:bak|orig|old|save|swp|swo|tmp|backup)|~|\.~\d+~)$/;
const SWAP_SUFFIX = /\.sw[po]$/;
// A name can carry a few of them (`.netrc.bak~`).
const MAX_BACKUP_SUFFIXES = 3;

/** The names a file could be a backup or swap copy of, its own name first. */
function namesBehindBackup(name: string): string[] {
  const names = [name];
  const autosave = /^#(.+)#$/.exec(name)?.[1];
  if (autosave !== undefined) names.push(autosave);
  let current = name;
  for (let count = 0; count < MAX_BACKUP_SUFFIXES; count += 1) {
    const stripped = current.replace(BACKUP_SUFFIX, '');
    if (stripped === current || stripped === '') break;
    names.push(stripped);
    if (SWAP_SUFFIX.test(current) && stripped.startsWith('.') && stripped.length > 1) {
      names.push(stripped.slice(1));
    }
    current = stripped;
  }
  return names;
}

/**
 * Secret-bearing files at a fixed place under HOME (relative to it): the dotfiles and the folder-
 * qualified paths above. The sandbox hides each, so the list is shared with the agent and the audit.
 */
export const HOME_SECRET_FILES: readonly string[] = [...SECRET_DOTFILES, ...SECRET_FILE_PATHS];

/**
 * Whether a file, by its name (and for a few, its folder) alone, is one whose content is a secret
 * and must never be read into a prompt. The audit skips and reports these, the agent asks before
 * reading or writing one, and the sandbox hides the ones that live in HOME.
 */
export function isSecretBearingFile(filePath: string): boolean {
  const normalized = filePath.replaceAll('\\', '/').toLowerCase();
  const folder = normalized.slice(0, normalized.lastIndexOf('/') + 1);
  const name = normalized.slice(folder.length);
  return namesBehindBackup(name).some((original) => isSecretBearingName(folder, original));
}

/**
 * What may follow a secret file's name in a copy that holds no secret: a public key, and the
 * templates projects commit to document the file. Any other ending (`.netrc.1`, `.pgpass-old`,
 * `id_rsa_github`, `kubeconfig.yaml`) is taken for a copy or a variant of the secret itself, so
 * no list of backup suffixes has to name every way people copy a file.
 */
const PUBLIC_VARIANT = /^[._-](?:pub|example|sample|template|dist)$/;

/** Whether a file named `name` in `folder` (ending in `/`, or empty) is secret-bearing. */
function isSecretBearingName(folder: string, name: string): boolean {
  const normalized = `${folder}${name}`;
  if (ENV_TEMPLATES.has(name)) return false;
  if (name === '.env' || name.startsWith('.env.')) return true;
  if (SECRET_FILE_NAMES.has(name)) return true;
  if (isVariantOfSecretName(name)) return true;
  if (SECRET_FILE_ENDINGS.some((ending) => name.endsWith(ending) && name !== ending)) return true;
  return SECRET_FILE_PATHS.some(
    (known) => normalized === known || normalized.endsWith(`/${known}`),
  );
}

/** `name` is a secret file's name followed by a separator and more, and not a public variant. */
function isVariantOfSecretName(name: string): boolean {
  for (const secret of SECRET_FILE_NAMES) {
    if (name.length <= secret.length || !name.startsWith(secret)) continue;
    const rest = name.slice(secret.length);
    if (/^[._~#-]/.test(rest) && !PUBLIC_VARIANT.test(rest)) return true;
  }
  return false;
}
