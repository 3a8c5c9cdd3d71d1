import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './nosql-injection.examples.json' with { type: 'json' };

const NOSQL_INJECTION: HintRule = {
  id: 'nosql/request-filter',
  category: 'nosql-injection',
  severity: 'high',
  description:
    'A MongoDB-style filter made of request values (objects can carry operators such as $ne), or $where with a non-constant string.',
  message:
    'The query filter holds request values as they came, so a client can send operators ($ne, $gt, $where); cast each value to a string or use $eq.',
  matchers: [
    {
      kind: 'request-sink',
      languages: ['js'],
      keywords: [
        'find',
        'findone',
        'updateone',
        'deleteone',
        'deletemany',
        'updatemany',
        'countdocuments',
        'findoneandupdate',
      ],
      pattern:
        /\.(?:find|findOne|findOneAndUpdate|findOneAndDelete|update|updateOne|updateMany|deleteOne|deleteMany|remove|countDocuments)\s*\(\s*(?:\{|[\w$.]+\s*[,)])/,
      // Sequelize `where:` filters bind values; `$eq` pins the operator; hashes and ciphers `update` too;
      // an `update` given one object sets values on a record (Sequelize): MongoDB's takes a filter and an update.
      unless:
        /\bwhere\s*:|\$eq\b|\bcreate(?:Hash|Hmac|Cipheriv|Decipheriv|Sign|Verify)\s*\(|\.digest\s*\(|\b(?:hash|hmac|cipher|decipher|md5|sha\d*)\.update\s*\(|\.update\s*\(\s*\{[^{}]*\}\s*\)/,
      input: 'js',
      argument: 'first',
    },
    {
      kind: 'request-sink',
      languages: ['python'],
      keywords: ['find', 'find_one', 'update_one', 'delete_one', 'delete_many', 'count_documents'],
      pattern:
        /\.(?:find|find_one|find_one_and_update|update_one|update_many|delete_one|delete_many|count_documents)\s*\(\s*(?:\{|[A-Za-z_][\w.]*\s*[,)])/,
      unless: /\$eq\b/,
      input: 'python',
      argument: 'first',
    },
    {
      kind: 'request-sink',
      languages: ['php'],
      keywords: ['find', 'findone', 'updateone', 'deleteone', 'updatemany', 'deletemany'],
      pattern:
        /->(?:find|findOne|updateOne|updateMany|deleteOne|deleteMany|count)\s*\(\s*(?:\[|array\s*\(|\$)/,
      unless: /\$eq\b/,
      input: 'php',
      argument: 'first',
    },
    {
      kind: 'code',
      languages: ['js', 'python', 'php', 'java'],
      keywords: ['$where'],
      pattern: /["']?\$where["']?\s*[:=]>?\s*(?:["'][^"']*["']\s*[+.]|`[^`]*\$\{|[\w$]+\s*[,}])/,
    },
  ],
};

export const NOSQL_INJECTION_CATEGORY: CategoryRules = {
  category: 'nosql-injection',
  label: 'NoSQL query built from request data',
  sinkKind: 'nosql',
  rules: [NOSQL_INJECTION],
  examples: readExamples(EXAMPLES, 'nosql-injection.examples.json'),
};
