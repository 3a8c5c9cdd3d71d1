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

// PHP (https://www.php.net/manual/en/ref.filesystem.php, ref.dir.php, and the extensions that
// open a file by name): functions whose first argument is a path.
export const PHP_PATH_FUNCTIONS: readonly string[] = [
  'chgrp',
  'chmod',
  'chown',
  'disk_free_space',
  'disk_total_space',
  'file',
  'file_exists',
  'file_get_contents',
  'file_put_contents',
  'fileatime',
  'filectime',
  'filegroup',
  'fileinode',
  'filemtime',
  'fileowner',
  'fileperms',
  'filesize',
  'filetype',
  'fopen',
  'glob',
  'is_dir',
  'is_executable',
  'is_file',
  'is_link',
  'is_readable',
  'is_writable',
  'is_writeable',
  'lchgrp',
  'lchown',
  'linkinfo',
  'lstat',
  'mkdir',
  'parse_ini_file',
  'readfile',
  'readlink',
  'rmdir',
  'stat',
  'tempnam',
  'touch',
  'unlink',
  'chdir',
  'chroot',
  'dir',
  'opendir',
  'scandir',
  'show_source',
  'highlight_file',
  'fpassthru',
  'simplexml_load_file',
  'md5_file',
  'sha1_file',
  'hash_file',
  'mime_content_type',
  'finfo_file',
  'exif_read_data',
  'getimagesize',
  'imagecreatefromgif',
  'imagecreatefromjpeg',
  'imagecreatefrompng',
  'imagecreatefromwebp',
  'imagecreatefrombmp',
  'gzopen',
  'gzfile',
  'readgzfile',
  'bzopen',
];

/** PHP functions that take two paths (source and destination): both are read. */
export const PHP_TWO_PATH_FUNCTIONS: readonly string[] = [
  'copy',
  'rename',
  'link',
  'symlink',
  'move_uploaded_file',
];

/** PHP classes whose constructor opens or lists a path (SPL, Phar, XMLReader::open is a method). */
export const PHP_PATH_CLASSES: readonly string[] = [
  'SplFileObject',
  'SplFileInfo',
  'DirectoryIterator',
  'FilesystemIterator',
  'RecursiveDirectoryIterator',
  'GlobIterator',
  'PharData',
  'Phar',
];

// Laravel's File facade (https://laravel.com/docs/filesystem is Storage; File is Illuminate\Filesystem\Filesystem)
// and the file responses (response()->download / file). The Storage facade is left out: its
// Flysystem path normaliser refuses a path that climbs out of the disk's root.
export const LARAVEL_FILE_METHODS: readonly string[] = [
  'get',
  'sharedGet',
  'lines',
  'put',
  'replace',
  'append',
  'prepend',
  'delete',
  'exists',
  'missing',
  'isFile',
  'isDirectory',
  'isReadable',
  'isWritable',
  'size',
  'lastModified',
  'hash',
  'files',
  'allFiles',
  'directories',
  'makeDirectory',
  'deleteDirectory',
  'cleanDirectory',
  'copy',
  'copyDirectory',
  'move',
  'moveDirectory',
  'link',
  'chmod',
  'json',
  'getRequire',
  'requireOnce',
];

/**
 * Calls whose result is a path made of their arguments (`Paths.get(root, name)`), by the callee as
 * written: the flow reads them as their arguments, not as a lookup keyed by them (`map.get(key)`).
 */
export const PATH_BUILDERS =
  /(?:^|\.)(?:Paths\.get|Path\.of|getDefault\(\)\.getPath|FileSystems\.getDefault\(\)\.getPath)$/;

// Java, from the JDK's reference (https://docs.oracle.com/en/java/javase/21/docs/api/): java.io's
// classes opened by a path or File, java.nio.file's Files (every method takes the Path it acts
// on), Paths.get and Path.of, the archive classes, the Servlet context's resources
// (ServletContext.getRealPath, getResource, getResourceAsStream) and Spring's file resources and
// utilities (FileSystemResource, PathResource, FileUrlResource, ResourceUtils.getFile,
// FileCopyUtils, FileSystemUtils).

/** Java classes whose constructor opens (or names for opening) a file by path. */
export const JAVA_FILE_CLASSES: readonly string[] = [
  'File',
  'FileInputStream',
  'FileOutputStream',
  'FileReader',
  'FileWriter',
  'RandomAccessFile',
  'PrintWriter',
  'PrintStream',
  'ZipFile',
  'JarFile',
  'FileSystemResource',
  'PathResource',
  'FileUrlResource',
  'FileImageInputStream',
  'FileImageOutputStream',
];

/** Java classes every static method of which takes a path (`Files.readString(p)`, commons-io's `FileUtils`). */
export const JAVA_PATH_OWNERS: readonly string[] = ['Files', 'FileUtils'];

/** Java static calls whose arguments are a path (matched after a word start). */
export const JAVA_PATH_CALLS: readonly string[] = [
  'Paths.get',
  'Path.of',
  'ResourceUtils.getFile',
  'ResourceUtils.getURL',
  'FileCopyUtils.copy',
  'FileSystemUtils.deleteRecursively',
  'FileSystemUtils.copyRecursively',
];

// A path cut to its last name component: java.nio.file.Path#getFileName and java.io.File#getName
// ("the name of the file or directory denoted by this abstract pathname ... the last name in the
// pathname's name sequence", Java SE 21 API), and commons-io's FilenameUtils.getName (a sanitiser).
// `Paths.get(name)` followed by one of these opens nothing: only the leaf goes on. The leaf of `..`
// is `..` itself, so under a fixed folder it names that folder's parent: no file outside it, the
// same one level `basename` leaves (a directory operation on it, a listing or a recursive delete,
// still reaches the parent; the index reads the leaf as safe, as it reads basename).

/** Methods that keep only a Java path's last name component, called with no argument. */
export const JAVA_PATH_LEAF_METHODS: readonly string[] = ['getFileName', 'getName'];

// Servlet's upload part (jakarta.servlet.http.Part, Servlet 6.0 API): write(fileName) stores the part
// at "a file name or a path", relative to the multipart location, an absolute path as given;
// getInputStream reads the upload and names no file.

/** The type of an uploaded part, whose `write` method takes a path. */
export const JAVA_UPLOAD_PART_TYPE = /(?<![\w$.])(?:(?:javax|jakarta)\.servlet\.http\.)?Part/;

/** The methods of an upload part that take a path. */
export const JAVA_UPLOAD_PART_PATH_METHODS: readonly string[] = ['write'];

/** Java methods that reach a file by a path relative to the web application or the class path. */
export const JAVA_RESOURCE_METHODS: readonly string[] = [
  'getRealPath',
  'getResourceAsStream',
  'getResourcePaths',
];

// Go, from https://pkg.go.dev/os, io/ioutil, path/filepath and net/http: every os function that takes
// a name first, ioutil's, filepath's directory walks and globs, http.ServeFile and http.Dir; Gin's
// file responses and upload saving (https://pkg.go.dev/github.com/gin-gonic/gin#Context.File).

/** Go calls whose first argument is a path. */
export const GO_PATH_CALLS: readonly string[] = [
  ...[
    'Open',
    'OpenFile',
    'ReadFile',
    'WriteFile',
    'Create',
    'CreateTemp',
    'Remove',
    'RemoveAll',
    'ReadDir',
    'Stat',
    'Lstat',
    'Mkdir',
    'MkdirAll',
    'MkdirTemp',
    'Rename',
    'Chmod',
    'Chown',
    'Lchown',
    'Chtimes',
    'Link',
    'Symlink',
    'Readlink',
    'Truncate',
    'Chdir',
    'DirFS',
  ].map((name) => `os.${name}`),
  ...['ReadFile', 'WriteFile', 'ReadDir', 'TempFile', 'TempDir'].map((name) => `ioutil.${name}`),
  ...['Glob', 'Walk', 'WalkDir'].map((name) => `filepath.${name}`),
  'http.ServeFile',
  'http.Dir',
];

/** Gin's Context methods that serve or save a file by a path among their arguments. */
export const GIN_FILE_METHODS: readonly string[] = [
  'File',
  'FileAttachment',
  'FileFromFS',
  'SaveUploadedFile',
];

// Ruby, from the core and standard library reference (https://docs.ruby-lang.org/en/3.3/): File's
// and IO's class methods that take a path (open, read, write, probe, remove, move, link; IO.new and
// IO.open take a descriptor, File's take a path), and FileTest's probes, which File shares
// (https://docs.ruby-lang.org/en/2.5.0/FileTest.html); Kernel#open, FileUtils (every method takes
// paths), Dir's, Pathname's constructor and the instance methods Init_pathname defines on its path
// (ruby/ruby ext/pathname/pathname.c at 08e9707c); Rails' and Sinatra's `send_file` and Rails'
// `render file:` (https://api.rubyonrails.org/classes/ActionController/DataStreaming.html,
// https://sinatrarb.com/intro.html#triggering-another-route "send_file").

/** Methods of Ruby's `File`, `IO` and `FileTest` whose first argument is a path. */
export const RUBY_FILE_METHODS: readonly string[] = [
  'new',
  'open',
  'sysopen',
  'read',
  'binread',
  'readlines',
  'foreach',
  'write',
  'binwrite',
  'copy_stream',
  'delete',
  'unlink',
  'rename',
  'link',
  'symlink',
  'readlink',
  'truncate',
  'chmod',
  'chown',
  'lchmod',
  'lchown',
  'utime',
  'lutime',
  'mkfifo',
  'stat',
  'lstat',
  'ftype',
  'realpath',
  'realdirpath',
  'exist?',
  'file?',
  'directory?',
  'symlink?',
  'readable?',
  'writable?',
  'executable?',
  'size',
  'size?',
  'zero?',
  'empty?',
  'mtime',
  'atime',
  'ctime',
  'birthtime',
  'blockdev?',
  'chardev?',
  'pipe?',
  'socket?',
  'owned?',
  'grpowned?',
  'setuid?',
  'setgid?',
  'sticky?',
  'identical?',
  'executable_real?',
  'readable_real?',
  'writable_real?',
  'world_readable?',
  'world_writable?',
];

/** Methods of Ruby's `Dir` whose first argument is a path or a pattern of paths (`Dir[pattern]` too). */
export const RUBY_DIR_METHODS: readonly string[] = [
  'glob',
  'entries',
  'children',
  'each_child',
  'foreach',
  'open',
  'new',
  'mkdir',
  'rmdir',
  'delete',
  'unlink',
  'chdir',
  'chroot',
  'exist?',
  'empty?',
];

/** `Pathname` methods that act on the receiver's path (`Rails.root.join("files", name).read`). */
export const RUBY_PATHNAME_METHODS: readonly string[] = [
  'read',
  'binread',
  'readlines',
  'each_line',
  'write',
  'binwrite',
  'open',
  'sysopen',
  'delete',
  'unlink',
  'rmtree',
  'rmdir',
  'mkpath',
  'children',
  'entries',
  'each_child',
  'opendir',
  'make_link',
  'make_symlink',
  'truncate',
  'rename',
  'stat',
  'lstat',
  'readlink',
  'chmod',
  'lchmod',
  'chown',
  'lchown',
  'utime',
  'ftype',
  'glob',
  'mkdir',
  'each_entry',
];

/** Ruby result probes: a boolean, a size or a time, whatever the path held. */
export const RUBY_PATH_PROBES =
  /(?:^|\.)(?:File|Dir|FileTest)\.(?:exist\?|file\?|directory\?|symlink\?|(?:readable|writable|executable)(?:_real)?\?|world_(?:readable|writable)\?|(?:blockdev|chardev|pipe|socket|owned|grpowned|setuid|setgid|sticky|identical)\?|size\??|zero\?|empty\?|[mac]time|birthtime)$/;
