import { describe, it } from 'vitest';
import {
  expectHint,
  expectNoHint,
  lines,
  type NegativeCase,
  type PositiveCase,
} from './hint-cases.js';

const FILE = 'path-traversal/request-input-file-access';
const HTTP = 'ssrf/request-input-http-request';

const positives: PositiveCase[] = [
  [
    'express sendFile with a query parameter',
    'src/routes.js',
    lines(
      "app.get('/file', (req, res) => {",
      '  res.sendFile(path.join(root, req.query.name));',
      '});',
    ),
    FILE,
    2,
    'high',
  ],
  [
    'fs.readFile with a route parameter',
    'src/routes.ts',
    "fs.readFile(`./uploads/${req.params.id}`, 'utf8', cb);",
    FILE,
    1,
    'high',
  ],
  [
    'fs.createReadStream through a variable',
    'src/routes.ts',
    lines('const name = req.query.file;', 'const stream = fs.createReadStream(name);'),
    FILE,
    2,
    'medium',
  ],
  [
    'destructured request body into writeFile',
    'src/routes.ts',
    lines('const { target, data } = req.body;', 'await fsp.writeFile(target, data);'),
    FILE,
    2,
    'medium',
  ],
  [
    'flask open with request.args',
    'app/views.py',
    lines('@app.route("/read")', 'def read():', '    return open(request.args["path"]).read()'),
    FILE,
    3,
    'high',
  ],
  [
    'flask send_file through a variable',
    'app/views.py',
    lines('name = request.args.get("f")', 'return send_file(name)'),
    FILE,
    2,
    'medium',
  ],
  [
    'rails send_file with params',
    'app/controllers/files_controller.rb',
    'send_file params[:path]',
    FILE,
    1,
    'high',
  ],
  [
    'php include of $_GET',
    'web/index.php',
    "<?php include $_GET['page'] . '.php';",
    FILE,
    1,
    'high',
  ],
  [
    'php file_get_contents through a variable',
    'web/index.php',
    lines('<?php', '$f = $_GET["f"];', 'echo file_get_contents($f);'),
    FILE,
    3,
    'medium',
  ],
  [
    'java new File with getParameter',
    'src/Download.java',
    'File f = new File(base, request.getParameter("name"));',
    FILE,
    1,
    'high',
  ],
  [
    'spring @RequestParam into Paths.get',
    'src/FilesController.java',
    lines(
      'public byte[] read(@RequestParam String name) throws IOException {',
      '  return Files.readAllBytes(Paths.get("/data", name));',
      '}',
    ),
    FILE,
    2,
    'medium',
  ],
  [
    'go os.Open with a query value',
    'web/files.go',
    'f, err := os.Open(r.URL.Query().Get("file"))',
    FILE,
    1,
    'high',
  ],
  [
    'csharp File.ReadAllText with Request.Query',
    'Web/Files.cs',
    'var text = File.ReadAllText(Request.Query["path"]);',
    FILE,
    1,
    'high',
  ],
  [
    'perl open with a CGI param',
    'cgi/view.pl',
    'open(my $fh, "<", param("file"));',
    FILE,
    1,
    'high',
  ],
  [
    'fetch of a url from the query',
    'src/proxy.ts',
    lines(
      "app.get('/proxy', async (req, res) => {",
      '  const upstream = await fetch(req.query.url as string);',
      '});',
    ),
    HTTP,
    2,
    'high',
  ],
  [
    'axios.get through a variable',
    'src/proxy.js',
    lines('const target = req.body.webhook;', 'await axios.post(target, payload);'),
    HTTP,
    2,
    'medium',
  ],
  [
    'python requests.get with request.args',
    'app/proxy.py',
    'r = requests.get(request.args.get("url"), timeout=5)',
    HTTP,
    1,
    'high',
  ],
  [
    'ruby Net::HTTP with params',
    'app/proxy.rb',
    'body = Net::HTTP.get(URI(params[:url]))',
    HTTP,
    1,
    'high',
  ],
  ['php curl with $_GET', 'web/proxy.php', '<?php $ch = curl_init($_GET["url"]);', HTTP, 1, 'high'],
  [
    'java new URL with getParameter',
    'src/Proxy.java',
    'URL u = new URL(request.getParameter("url"));',
    HTTP,
    1,
    'high',
  ],
  [
    'go http.Get with FormValue',
    'web/proxy.go',
    'resp, err := http.Get(r.FormValue("url"))',
    HTTP,
    1,
    'high',
  ],
  [
    'csharp GetAsync with Request.Query',
    'Web/Proxy.cs',
    'var body = await client.GetStringAsync(Request.Query["url"]);',
    HTTP,
    1,
    'high',
  ],
];

const negatives: NegativeCase[] = [
  [
    'readFile of a constant path',
    'src/a.ts',
    "const conf = fs.readFileSync('./config.json', 'utf8');",
    FILE,
  ],
  [
    'sendFile of a fixed file',
    'src/a.ts',
    "res.sendFile(path.join(__dirname, 'index.html'));",
    FILE,
  ],
  [
    'fetch of a constant url',
    'src/a.ts',
    "const r = await fetch('https://api.example.com/v1/items');",
    HTTP,
  ],
  [
    'a method declaration named fetch',
    'src/a.ts',
    lines('const url = req.url;', 'async fetch(url, options) {'),
    HTTP,
  ],
  [
    'request input far from any sink',
    'src/a.ts',
    lines('const id = req.params.id;', 'log(id);', 'const x = await fetch(CONFIG_URL);'),
    HTTP,
  ],
  ['python open of a constant path', 'a.py', 'with open("settings.toml") as f:', FILE],
  [
    'fetch named in a string',
    'src/a.ts',
    "throw new Error('fetch(req.query.url) is not allowed');",
    HTTP,
  ],
  ['fetch in a comment', 'src/a.ts', '// fetch(req.query.url) would be SSRF', HTTP],
];

describe('request input reaching file and HTTP sinks', () => {
  it.each(positives)('%s', (_label, path, code, ruleId, line, severity) => {
    expectHint(path, code, ruleId, line, severity);
  });
  it.each(negatives)('near miss: %s', (_label, path, code, ruleId) => {
    expectNoHint(path, code, ruleId);
  });
});
