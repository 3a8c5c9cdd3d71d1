import path from 'node:path';

const SECRET_FILE_NAMES = new Set([
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  '.npmrc',
  '.pypirc',
  '.netrc',
  '.git-credentials',
  'credentials.json',
  'kubeconfig',
]);
const SECRET_FILE_EXTENSIONS = new Set(['.pem', '.key', '.p12', '.pfx', '.jks', '.tfstate']);
// Templates that document variables without holding them are read (and still redacted).
const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template']);

/** Whether a file, by its name alone, is one whose content is a secret and must never be read into a prompt. */
export function isSecretBearingFile(filePath: string): boolean {
  const name = path.posix.basename(filePath.replaceAll('\\', '/')).toLowerCase();
  if (ENV_TEMPLATES.has(name)) return false;
  if (name === '.env' || name.startsWith('.env.')) return true;
  if (SECRET_FILE_NAMES.has(name)) return true;
  return SECRET_FILE_EXTENSIONS.has(path.posix.extname(name));
}
