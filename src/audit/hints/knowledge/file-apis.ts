// Every way Node.js and Python open, probes, lists, moves or removes a file by path, from its own reference:
// builtins and io (https://docs.python.org/3/library/io.html), codecs.open, os "Files and
// Directories", os.path's probes, shutil, glob, fileinput, linecache, the archive and compression
// modules' `open`, pathlib's Path methods, and the web frameworks' file responses. Node.js: the
// `fs` module's path-taking functions (https://nodejs.org/api/fs.html), callback, sync and promise
// forms alike, and Express's file responses.

/** Node.js `fs` functions whose first argument is a path (each also has a `…Sync` form). */
export const NODE_FS_FUNCTIONS: readonly string[] = [
  'access',
  'appendFile',
  'chmod',
  'chown',
  'copyFile',
  'cp',
  'createReadStream',
  'createWriteStream',
  'exists',
  'lchown',
  'link',
  'lstat',
  'lutimes',
  'mkdir',
  'mkdtemp',
  'open',
  'openAsBlob',
  'opendir',
  'readdir',
  'readFile',
  'readlink',
  'realpath',
  'rename',
  'rm',
  'rmdir',
  'stat',
  'statfs',
  'symlink',
  'truncate',
  'unlink',
  'utimes',
  'watch',
  'watchFile',
  'writeFile',
];

/** An import of `fs` or `fs/promises` (CommonJS or ES module): its functions may then be called by bare name. */
export const NODE_FS_IMPORT =
  /\brequire\s*\(\s*["'](?:node:)?fs(?:\/promises)?["']\s*\)|\bfrom\s+["'](?:node:)?fs(?:\/promises)?["']/;

/** Functions whose first argument is a path (matched after a word start: `codecs.open(`, `flask.send_file(`). */
export const PYTHON_PATH_CALLS: readonly string[] = [
  'io.open',
  'io.FileIO',
  'codecs.open',
  'os.open',
  'os.remove',
  'os.unlink',
  'os.rmdir',
  'os.removedirs',
  'os.mkdir',
  'os.makedirs',
  'os.rename',
  'os.renames',
  'os.replace',
  'os.listdir',
  'os.scandir',
  'os.walk',
  'os.stat',
  'os.lstat',
  'os.chmod',
  'os.chown',
  'os.access',
  'os.truncate',
  'os.symlink',
  'os.link',
  'os.readlink',
  'os.utime',
  'os.chdir',
  'os.path.exists',
  'os.path.lexists',
  'os.path.isfile',
  'os.path.isdir',
  'os.path.islink',
  'os.path.getsize',
  'os.path.getmtime',
  'os.path.getatime',
  'os.path.getctime',
  'shutil.copy',
  'shutil.copy2',
  'shutil.copyfile',
  'shutil.copytree',
  'shutil.copymode',
  'shutil.copystat',
  'shutil.move',
  'shutil.rmtree',
  'shutil.chown',
  'shutil.unpack_archive',
  'glob.glob',
  'glob.iglob',
  'fileinput.input',
  'linecache.getline',
  'linecache.getlines',
  'tarfile.open',
  'zipfile.ZipFile',
  'gzip.open',
  'bz2.open',
  'lzma.open',
  'send_file',
  'FileResponse',
  'Path',
  'PosixPath',
  'WindowsPath',
];

/** Builtins taking a path first, matched only where they are not a method (`open(`, not `zf.open(`). */
export const PYTHON_PATH_BUILTINS: readonly string[] = ['open'];

/**
 * pathlib methods on a path object: the receiver is the path (`(BASE / name).read_text()`).
 * `replace`, `rename` and `glob` are left out: strings and other objects have methods of those names.
 */
export const PYTHON_PATH_METHODS: readonly string[] = [
  'open',
  'read_text',
  'read_bytes',
  'write_text',
  'write_bytes',
  'unlink',
  'rmdir',
  'mkdir',
  'touch',
  'exists',
  'is_file',
  'is_dir',
  'is_symlink',
  'iterdir',
  'stat',
  'lstat',
  'chmod',
  'symlink_to',
  'hardlink_to',
];
