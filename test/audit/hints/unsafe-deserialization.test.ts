import { describe, it } from 'vitest';
import {
  expectHint,
  expectNoHint,
  lines,
  type NegativeCase,
  type PositiveCase,
} from './hint-cases.js';

const positives: PositiveCase[] = [
  [
    'python pickle.loads',
    'app/cache.py',
    lines('import pickle', 'obj = pickle.loads(blob)'),
    'deser/python-pickle',
    2,
    'high',
  ],
  [
    'python cPickle.load',
    'app/cache.py',
    'data = cPickle.load(fh)',
    'deser/python-pickle',
    1,
    'high',
  ],
  [
    'python torch.load without weights_only',
    'ml/load.py',
    'model = torch.load(path)',
    'deser/python-pickle',
    1,
    'high',
  ],
  [
    'python yaml.load without a loader',
    'app/conf.py',
    lines('import yaml', 'with open(p) as f:', '    conf = yaml.load(f)'),
    'deser/python-yaml-load',
    3,
    'high',
  ],
  [
    'python yaml.unsafe_load',
    'app/conf.py',
    'conf = yaml.unsafe_load(text)',
    'deser/python-yaml-load',
    1,
    'high',
  ],
  [
    'ruby Marshal.load',
    'lib/session.rb',
    'session = Marshal.load(Base64.decode64(cookie))',
    'deser/ruby-marshal-load',
    1,
    'high',
  ],
  [
    'ruby YAML.load',
    'lib/conf.rb',
    'conf = YAML.load(File.read(path))',
    'deser/ruby-yaml-load',
    1,
    'medium',
  ],
  [
    'php unserialize of a cookie',
    'web/a.php',
    '<?php $prefs = unserialize($_COOKIE["prefs"]);',
    'deser/php-unserialize',
    1,
    'high',
  ],
  [
    'java ObjectInputStream',
    'src/Load.java',
    lines(
      'ObjectInputStream in = new ObjectInputStream(socket.getInputStream());',
      'Object o = in.readObject();',
    ),
    'deser/java-object-input-stream',
    1,
    'high',
  ],
  [
    'kotlin ObjectInputStream without new',
    'src/Load.kt',
    'val input = ObjectInputStream(stream)',
    'deser/java-object-input-stream',
    1,
    'high',
  ],
  [
    'java readObject on a stream passed in',
    'src/Load.java',
    lines('Object load(ObjectInputStream in) throws Exception {', '  return in.readObject();', '}'),
    'deser/java-object-input-stream',
    2,
    'high',
  ],
  [
    'java XStream.fromXML',
    'src/Load.java',
    'Object o = xstream.fromXML(body);',
    'deser/java-object-input-stream',
    1,
    'high',
  ],
  [
    'jackson default typing',
    'src/Json.java',
    'mapper.enableDefaultTyping();',
    'deser/java-jackson-default-typing',
    1,
    'medium',
  ],
  [
    'node-serialize unserialize',
    'src/session.js',
    lines(
      "const serialize = require('node-serialize');",
      'const obj = serialize.unserialize(req.cookies.profile);',
    ),
    'deser/node-serialize',
    2,
    'high',
  ],
  [
    'dotnet BinaryFormatter',
    'Svc/Load.cs',
    'var obj = new BinaryFormatter().Deserialize(stream);',
    'deser/dotnet-binary-formatter',
    1,
    'high',
  ],
  [
    'json.net TypeNameHandling.All',
    'Svc/Json.cs',
    'var s = new JsonSerializerSettings { TypeNameHandling = TypeNameHandling.All };',
    'deser/dotnet-binary-formatter',
    1,
    'high',
  ],
  [
    'perl Storable thaw',
    'lib/Cache.pm',
    lines('use Storable qw(thaw);', 'my $obj = thaw($frozen);'),
    'deser/perl-storable',
    2,
    'medium',
  ],
];

const negatives: NegativeCase[] = [
  ['python yaml.safe_load', 'a.py', 'conf = yaml.safe_load(f)', 'deser/python-yaml-load'],
  [
    'python yaml.load with SafeLoader',
    'a.py',
    'conf = yaml.load(f, Loader=yaml.SafeLoader)',
    'deser/python-yaml-load',
  ],
  [
    'python yaml.load with SafeLoader on the next line',
    'a.py',
    lines('conf = yaml.load(', '    f,', '    Loader=yaml.CSafeLoader,', ')'),
    'deser/python-yaml-load',
  ],
  ['python pickle.dumps', 'a.py', 'blob = pickle.dumps(obj)', 'deser/python-pickle'],
  [
    'python torch.load with weights_only',
    'a.py',
    'model = torch.load(path, weights_only=True)',
    'deser/python-pickle',
  ],
  [
    'js-yaml load is safe by default in js',
    'src/a.ts',
    'const conf = yaml.load(text);',
    'deser/python-yaml-load',
  ],
  [
    'php unserialize with allowed_classes false',
    'a.php',
    '<?php $v = unserialize($s, ["allowed_classes" => false]);',
    'deser/php-unserialize',
  ],
  [
    'php method named unserialize',
    'a.php',
    '<?php $v = $codec->unserialize($s);',
    'deser/php-unserialize',
  ],
  [
    'unserialize in js without node-serialize',
    'src/a.js',
    'const v = php.unserialize(text);',
    'deser/node-serialize',
  ],
  ['ruby YAML.safe_load', 'lib/a.rb', 'conf = YAML.safe_load(text)', 'deser/ruby-yaml-load'],
  ['perl retrieve without Storable', 'lib/A.pm', 'my $x = retrieve($key);', 'deser/perl-storable'],
];

describe('unsafe deserialization rules', () => {
  it.each(positives)('%s', (_label, path, code, ruleId, line, severity) => {
    expectHint(path, code, ruleId, line, severity);
  });
  it.each(negatives)('near miss: %s', (_label, path, code, ruleId) => {
    expectNoHint(path, code, ruleId);
  });
});
