import { defineTokenRule, isRandomToken } from '../define-token-rule.js';
import type { AnchoredRule } from '../redaction-rule.js';
import { shannonEntropy } from '../shannon-entropy.js';

// 40 random base64 characters average 5 bits each; a floor of 4 leaves room and refuses patterns.
const AWS_SECRET_ENTROPY_FLOOR_BITS = 4;
// `key = value`, `key: value`, `"key": "value"`, `key := value`, `key => value`, `set key value`.
const ASSIGN = String.raw`["'\]]*(?:\s*(?:=>|:=|[:=])\s*|[ \t]+)["']?`;

export const CLOUD_PROVIDER_RULES: readonly AnchoredRule[] = [
  defineTokenRule({
    id: 'aws-access-key-id',
    description: 'An AWS access key id (AKIA, ASIA, ABIA, ACCA, A3T)',
    keywords: ['akia', 'asia', 'abia', 'acca', 'a3t'],
    pattern: /(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}/y,
  }),
  defineTokenRule({
    id: 'aws-secret-access-key',
    description: 'An AWS secret access key assigned to an aws_secret_access_key-like name',
    keywords: ['secret_access_key', 'secretaccesskey', 'secret-access-key', 'aws_secret_key'],
    pattern: new RegExp(
      String.raw`(?:secret[_-]?access[_-]?key|aws_secret_key)${ASSIGN}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
      'diy',
    ),
    isSecret: (value) =>
      isRandomToken(value) && shannonEntropy(value) >= AWS_SECRET_ENTROPY_FLOOR_BITS,
  }),
  defineTokenRule({
    id: 'google-api-key',
    description: 'A Google API key (AIza...)',
    keywords: ['aiza'],
    pattern: /AIza[0-9A-Za-z_-]{35}/y,
  }),
  defineTokenRule({
    id: 'azure-storage-account-key',
    description: 'An Azure storage account key (AccountKey= in a connection string)',
    keywords: ['accountkey'],
    pattern: /AccountKey\s*=\s*([A-Za-z0-9+/]{40,100}={0,2})(?![A-Za-z0-9+/=])/diy,
  }),
  defineTokenRule({
    id: 'azure-shared-access-key',
    description: 'An Azure Service Bus, Event Hubs or IoT Hub SharedAccessKey',
    keywords: ['sharedaccesskey'],
    pattern: /SharedAccessKey\s*=\s*([A-Za-z0-9+/]{30,100}={0,2})(?![A-Za-z0-9+/=])/diy,
  }),
  defineTokenRule({
    id: 'azure-sas-token',
    description: 'The signature of an Azure shared access signature (sv=...&sig=...)',
    keywords: ['sig='],
    // Never a prefix of a URL-safe signature (Logic Apps `sig=...-...`): its tail would stay in clear.
    pattern: /sig=((?:[A-Za-z0-9+/]|%2[BbFf]){30,200}(?:%3[Dd]|=){0,2})(?![A-Za-z0-9+/%=_-])/dy,
    isSecret: (value) => isRandomToken(value) && /[A-Z]/.test(value) && /[a-z]/.test(value),
  }),
];
