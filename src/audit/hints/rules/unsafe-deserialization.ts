import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './unsafe-deserialization.examples.json' with { type: 'json' };

const PYTHON_PICKLE: HintRule = {
  id: 'deser/python-pickle',
  category: 'unsafe-deserialization',
  severity: 'high',
  description:
    'pickle (and dill, shelve, jsonpickle, joblib, torch.load, read_pickle): loading runs code.',
  message: 'Unpickling runs arbitrary code; verify the data can only come from a trusted source.',
  matchers: [
    {
      kind: 'code',
      languages: ['python'],
      isStringScanned: false,
      keywords: [
        'pickle',
        'cpickle',
        '_pickle',
        'cloudpickle',
        'dill',
        'jsonpickle',
        'shelve',
        'read_pickle',
        'joblib',
        'torch',
      ],
      // Loads from a file or stream; `loads` and `jsonpickle.decode` take the bytes themselves (below).
      pattern:
        /\b(?:c?[pP]ickle|_pickle|cloudpickle|dill)\.(?:load|Unpickler)\s*\(|\bshelve\.open\s*\(|\bread_pickle\s*\(|\bjoblib\.load\s*\(|\btorch\.load\s*\((?![^)]*weights_only\s*=\s*True)/,
    },
    {
      // The pickled bytes themselves: a constant is no attack, request input is.
      kind: 'flow-sink',
      languages: ['python'],
      isStringScanned: false,
      argument: 'first',
      keywords: ['pickle', 'cpickle', '_pickle', 'cloudpickle', 'dill', 'jsonpickle'],
      pattern: /\b(?:c?[pP]ickle|_pickle|cloudpickle|dill)\.loads\s*\(|\bjsonpickle\.decode\s*\(/,
    },
  ],
};

const PYTHON_YAML_LOAD: HintRule = {
  id: 'deser/python-yaml-load',
  category: 'unsafe-deserialization',
  severity: 'high',
  description: 'PyYAML load/full_load/unsafe_load without SafeLoader.',
  message:
    'yaml.load without SafeLoader can build arbitrary objects; use yaml.safe_load or Loader=yaml.SafeLoader.',
  matchers: [
    {
      kind: 'code',
      languages: ['python'],
      isStringScanned: false,
      keywords: ['yaml'],
      pattern: /\byaml\.(?:load|load_all|unsafe_load|unsafe_load_all|full_load|full_load_all)\s*\(/,
      // The Loader argument may sit on the following lines of the call.
      near: { before: 0, after: 3, forbids: /\bLoader\s*=\s*(?:yaml\.)?C?(?:Safe|Base)Loader\b/ },
    },
  ],
};

const RUBY_MARSHAL_LOAD: HintRule = {
  id: 'deser/ruby-marshal-load',
  category: 'unsafe-deserialization',
  severity: 'high',
  description: 'Ruby Marshal.load / Marshal.restore, or YAML.unsafe_load.',
  message:
    'Marshal.load (or YAML.unsafe_load) can instantiate arbitrary objects; verify the data is trusted.',
  matchers: [
    {
      kind: 'code',
      languages: ['ruby'],
      isStringScanned: false,
      keywords: ['marshal', 'yaml', 'psych'],
      pattern: /\bMarshal\.(?:load|restore)\b|\b(?:YAML|Psych)\.unsafe_load(?:_file)?\b/,
    },
  ],
};

const RUBY_YAML_LOAD: HintRule = {
  id: 'deser/ruby-yaml-load',
  category: 'unsafe-deserialization',
  severity: 'medium',
  description: 'Ruby YAML.load / load_file, unsafe before Psych 4.',
  message:
    'YAML.load instantiates arbitrary objects before Psych 4; verify the Psych version or use YAML.safe_load.',
  matchers: [
    {
      kind: 'code',
      languages: ['ruby'],
      isStringScanned: false,
      keywords: ['yaml', 'psych'],
      pattern: /\b(?:YAML|Psych)\.(?:load|load_file|load_stream|load_documents)\b/,
      unless: /\bpermitted_classes\b|\bsafe_load\b/,
    },
  ],
};

const PHP_UNSERIALIZE: HintRule = {
  id: 'deser/php-unserialize',
  category: 'unsafe-deserialization',
  severity: 'high',
  description: 'PHP unserialize() without allowed_classes => false.',
  message:
    'unserialize can instantiate objects and trigger magic methods; use json_decode or allowed_classes => false.',
  matchers: [
    {
      kind: 'code',
      languages: ['php'],
      isStringScanned: false,
      keywords: ['unserialize'],
      pattern: /(?<![\w>:$])unserialize\s*\(/,
      unless: /allowed_classes["']?\s*=>\s*false/,
    },
  ],
};

const JAVA_OBJECT_INPUT_STREAM: HintRule = {
  id: 'deser/java-object-input-stream',
  category: 'unsafe-deserialization',
  severity: 'high',
  description:
    'Java native deserialization: ObjectInputStream, XMLDecoder, XStream.fromXML, SerializationUtils.deserialize.',
  message:
    'Java deserialization of a stream can run gadget chains; verify the stream is trusted or an ObjectInputFilter restricts classes.',
  matchers: [
    {
      kind: 'code',
      languages: ['java'],
      isStringScanned: false,
      keywords: [
        'objectinputstream',
        'xmldecoder',
        'fromxml',
        'serializationutils',
        'readobject',
        'readunshared',
      ],
      pattern:
        /(?<![\w.])(?:new\s+)?(?:ObjectInputStream|XMLDecoder)\s*\(|\.fromXML\s*\(|\bSerializationUtils\.deserialize\s*\(|\.read(?:Object|Unshared)\s*\(\s*\)/,
    },
  ],
};

const JAVA_JACKSON_DEFAULT_TYPING: HintRule = {
  id: 'deser/java-jackson-default-typing',
  category: 'unsafe-deserialization',
  severity: 'medium',
  description:
    'Jackson polymorphic typing by class name (default typing or JsonTypeInfo.Id.CLASS).',
  message:
    'Jackson resolves class names from the JSON here; verify a strict PolymorphicTypeValidator limits them.',
  matchers: [
    {
      kind: 'code',
      languages: ['java'],
      isStringScanned: false,
      keywords: ['enabledefaulttyping', 'activatedefaulttyping', 'jsontypeinfo'],
      pattern:
        /\b(?:enableDefaultTyping|activateDefaultTyping)\s*\(|@JsonTypeInfo\s*\(\s*use\s*=\s*JsonTypeInfo\.Id\.(?:CLASS|MINIMAL_CLASS)/,
    },
  ],
};

const NODE_SERIALIZE: HintRule = {
  id: 'deser/node-serialize',
  category: 'unsafe-deserialization',
  severity: 'high',
  description:
    'node-serialize, serialize-to-js or funcster, whose unserialize evaluates functions.',
  message:
    'This serializer revives functions with eval on unserialize; verify the input is trusted or use JSON.',
  matchers: [
    {
      kind: 'code',
      languages: ['js'],
      isStringScanned: false,
      keywords: ['node-serialize', 'serialize-to-js', 'funcster', 'unserialize'],
      pattern: /["'](?:node-serialize|serialize-to-js|funcster)["']|\.unserialize\s*\(/,
      fileRequires: /["'](?:node-serialize|serialize-to-js|funcster)["']/,
    },
  ],
};

const DOTNET_BINARY_FORMATTER: HintRule = {
  id: 'deser/dotnet-binary-formatter',
  category: 'unsafe-deserialization',
  severity: 'high',
  description:
    '.NET BinaryFormatter and similar formatters, or Json.NET TypeNameHandling other than None.',
  message:
    'This .NET deserializer can instantiate arbitrary types; verify the input is trusted or switch to a safe serializer.',
  matchers: [
    {
      kind: 'code',
      languages: ['csharp'],
      isStringScanned: false,
      keywords: [
        'binaryformatter',
        'soapformatter',
        'netdatacontractserializer',
        'losformatter',
        'objectstateformatter',
        'typenamehandling',
        'javascriptserializer',
      ],
      pattern:
        /\b(?:BinaryFormatter|SoapFormatter|NetDataContractSerializer|LosFormatter|ObjectStateFormatter)\b|\bTypeNameHandling\s*=\s*TypeNameHandling\.(?:All|Objects|Auto|Arrays)\b|\bnew\s+JavaScriptSerializer\s*\(\s*new\s+SimpleTypeResolver/,
    },
  ],
};

const PERL_STORABLE: HintRule = {
  id: 'deser/perl-storable',
  category: 'unsafe-deserialization',
  severity: 'medium',
  description: 'Perl Storable thaw/retrieve, which can trigger object destructors.',
  message:
    'Storable thaw/retrieve on untrusted data can run code through blessed objects; verify the data is trusted.',
  matchers: [
    {
      kind: 'code',
      languages: ['perl'],
      isStringScanned: false,
      keywords: ['thaw', 'retrieve', 'fd_retrieve', 'storable'],
      pattern: /(?<![\w>$])(?:Storable::)?(?:thaw|retrieve|fd_retrieve)\s*\(/,
      fileRequires: /\bStorable\b/,
    },
  ],
};

export const UNSAFE_DESERIALIZATION_CATEGORY: CategoryRules = {
  category: 'unsafe-deserialization',
  label: 'Unsafe deserialization',
  rules: [
    PYTHON_PICKLE,
    PYTHON_YAML_LOAD,
    RUBY_MARSHAL_LOAD,
    RUBY_YAML_LOAD,
    PHP_UNSERIALIZE,
    JAVA_OBJECT_INPUT_STREAM,
    JAVA_JACKSON_DEFAULT_TYPING,
    NODE_SERIALIZE,
    DOTNET_BINARY_FORMATTER,
    PERL_STORABLE,
  ],
  examples: readExamples(EXAMPLES, 'unsafe-deserialization.examples.json'),
};
