import { randomInt } from 'node:crypto';

// Fresh, format-valid values for every self-identifying vendor token rule, drawn anew on each run.
// Prefixes are joined from pieces so no source file holds scanner bait.

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const LOWER_ALNUM = LOWER + DIGITS;
const UPPER_ALNUM = UPPER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}_-`;

/** `length` characters drawn from `alphabet` by the system's random source. */
export function randomChars(alphabet: string, length: number): string {
  let out = '';
  for (let index = 0; index < length; index += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
}

const r = randomChars;
const j = (...parts: string[]): string => parts.join('');

export interface VendorTokenSample {
  rule: string;
  value: string;
  /** The same prefix with too short a body: must not be taken for a token. */
  nearMiss: string;
}

const SAMPLES: ReadonlyArray<[rule: string, make: () => string, nearMiss: () => string]> = [
  ['huggingface-token', () => j('hf', '_', r(ALNUM, 34)), () => j('hf', '_', r(ALNUM, 20))],
  [
    'huggingface-org-token',
    () => j('api', '_org_', r(ALNUM, 34)),
    () => j('api', '_org_', r(ALNUM, 12)),
  ],
  [
    'slack-app-token',
    () => j('xa', 'pp-1-', r(UPPER_ALNUM, 11), '-', r(DIGITS, 13), '-', r(HEX, 64)),
    () => j('xa', 'pp-1-', r(UPPER_ALNUM, 11)),
  ],
  [
    'gitlab-agent-token',
    () => j('gla', 'gent-', r(URLSAFE, 50)),
    () => j('gla', 'gent-', r(ALNUM, 10)),
  ],
  [
    'gitlab-agent-token',
    () => j('glo', 'as-', r(LOWER_ALNUM, 64)),
    () => j('glo', 'as-', r(ALNUM, 10)),
  ],
  [
    'gitlab-agent-token',
    () => j('glf', 't-', r(LOWER_ALNUM, 20)),
    () => j('glf', 't-', r(ALNUM, 10)),
  ],
  [
    'gitlab-agent-token',
    () => j('gli', 'mt-', r(LOWER_ALNUM, 25)),
    () => j('gli', 'mt-', r(ALNUM, 10)),
  ],
  [
    'gitlab-runner-registration-token',
    () => j('GR13', '48941', r(ALNUM, 20)),
    () => j('GR13', '48941', r(ALNUM, 10)),
  ],
  ['shopify-token', () => j('shp', 'at_', r(HEX, 32)), () => j('shp', 'at_', r(HEX, 20))],
  ['shopify-token', () => j('shp', 'ss_', r(HEX, 32)), () => j('shp', 'ss_', r(HEX, 20))],
  ['digitalocean-token', () => j('do', 'p_v1_', r(HEX, 64)), () => j('do', 'p_v1_', r(HEX, 40))],
  ['digitalocean-token', () => j('do', 'r_v1_', r(HEX, 64)), () => j('do', 'r_v1_', r(HEX, 40))],
  ['sentry-token', () => j('sntr', 'yu_', r(HEX, 64)), () => j('sntr', 'yu_', r(HEX, 30))],
  [
    'grafana-token',
    () => j('gl', 'sa_', r(ALNUM, 32), '_', r(HEX, 8)),
    () => j('gl', 'sa_', r(ALNUM, 12)),
  ],
  ['grafana-token', () => j('gl', 'c_', r(B64, 80)), () => j('gl', 'c_', r(ALNUM, 12))],
  ['databricks-token', () => j('da', 'pi', r(HEX, 32)), () => j('da', 'pi', r(HEX, 12))],
  [
    'notion-token',
    () => j('nt', 'n_', r(DIGITS, 11), r(ALNUM, 35)),
    () => j('nt', 'n_', r(DIGITS, 11)),
  ],
  [
    'postman-api-key',
    () => j('PM', 'AK-', r(HEX, 24), '-', r(HEX, 34)),
    () => j('PM', 'AK-', r(HEX, 24)),
  ],
  ['doppler-token', () => j('dp', '.pt.', r(ALNUM, 43)), () => j('dp', '.pt.', r(ALNUM, 20))],
  ['pulumi-token', () => j('pu', 'l-', r(HEX, 40)), () => j('pu', 'l-', r(HEX, 20))],
  ['linear-api-key', () => j('lin', '_api_', r(ALNUM, 40)), () => j('lin', '_api_', r(ALNUM, 20))],
  [
    'planetscale-token',
    () => j('psc', 'ale_tkn_', r(URLSAFE, 43)),
    () => j('psc', 'ale_tkn_', r(ALNUM, 12)),
  ],
  ['flyio-token', () => j('fo', '1_', r(URLSAFE, 43)), () => j('fo', '1_', r(ALNUM, 20))],
  ['heroku-api-key', () => j('HR', 'KU-', r(URLSAFE, 60)), () => j('HR', 'KU-', r(ALNUM, 20))],
  ['perplexity-api-key', () => j('pp', 'lx-', r(ALNUM, 48)), () => j('pp', 'lx-', r(ALNUM, 20))],
  [
    'cloudflare-origin-ca-key',
    () => j('v1', '.0-', r(HEX, 24), '-', r(HEX, 146)),
    () => j('v1', '.0-', r(HEX, 24)),
  ],
  ['aws-bedrock-api-key', () => j('AB', 'SK', r(B64, 132)), () => j('AB', 'SK', r(B64, 30))],
  ['vault-token', () => j('hv', 's.', r(URLSAFE, 95)), () => j('hv', 's.', r(ALNUM, 24))],
  ['stripe-key', () => j('sk', '_test_', r(ALNUM, 24)), () => j('sk', '_test_', r(ALNUM, 5))],
  ['adobe-client-secret', () => j('p8', 'e-', r(ALNUM, 32)), () => j('p8', 'e-', r(ALNUM, 16))],
  ['alibaba-access-key-id', () => j('LT', 'AI', r(ALNUM, 20)), () => j('LT', 'AI', r(ALNUM, 10))],
  [
    'clojars-token',
    () => j('CLOJ', 'ARS_', r(LOWER_ALNUM, 60)),
    () => j('CLOJ', 'ARS_', r(LOWER_ALNUM, 20)),
  ],
  [
    'dynatrace-token',
    () => j('dt0', 'c01.', r(UPPER_ALNUM, 24), '.', r(UPPER_ALNUM, 64)),
    () => j('dt0', 'c01.', r(UPPER_ALNUM, 24)),
  ],
  ['easypost-api-key', () => j('EZ', 'AK', r(ALNUM, 54)), () => j('EZ', 'AK', r(ALNUM, 20))],
  ['openshift-token', () => j('sha256', '~', r(URLSAFE, 43)), () => j('sha256', '~', r(ALNUM, 20))],
  ['prefect-token', () => j('pn', 'u_', r(ALNUM, 36)), () => j('pn', 'u_', r(ALNUM, 20))],
  ['rubygems-token', () => j('ruby', 'gems_', r(HEX, 48)), () => j('ruby', 'gems_', r(HEX, 20))],
  [
    'brevo-api-key',
    () => j('xkey', 'sib-', r(HEX, 64), '-', r(ALNUM, 16)),
    () => j('xkey', 'sib-', r(HEX, 30)),
  ],
  [
    'shippo-token',
    () => j('shi', 'ppo_live_', r(HEX, 40)),
    () => j('shi', 'ppo_live_', r(HEX, 20)),
  ],
  ['square-token', () => j('sq0', 'atp-', r(URLSAFE, 22)), () => j('sq0', 'atp-', r(ALNUM, 10))],
  [
    'atlassian-api-token',
    () => j('ATA', 'TT3', r(URLSAFE, 186)),
    () => j('ATA', 'TT3', r(ALNUM, 40)),
  ],
  [
    'newrelic-key',
    () => j('NR', 'AK-', r(UPPER_ALNUM, 27)),
    () => j('NR', 'AK-', r(UPPER_ALNUM, 10)),
  ],
  [
    'azure-ad-client-secret',
    () => j(r(ALNUM, 3), r(DIGITS, 1), 'Q', '~', r(`${ALNUM}_-`, 34)),
    () => j(r(ALNUM, 3), r(DIGITS, 1), 'Q', '~', r(ALNUM, 12)),
  ],
  [
    'terraform-cloud-token',
    () => j(r(LOWER_ALNUM, 14), '.atl', 'asv1.', r(LOWER_ALNUM, 67)),
    () => j(r(LOWER_ALNUM, 14), '.atl', 'asv1.', r(LOWER_ALNUM, 20)),
  ],
  [
    'logic-apps-webhook-signature',
    () =>
      j(
        'https://oy.logic.',
        'azure.com/workflows/',
        r(HEX, 32),
        '/triggers/manual/paths/invoke?sv=1.0&sig=',
        r(URLSAFE, 43),
      ),
    () =>
      j(
        'https://oy.logic.',
        'azure.com/workflows/',
        r(HEX, 32),
        '/triggers/manual/paths/invoke?sv=1.0&sig=',
        r(URLSAFE, 12),
      ),
  ],
  [
    'mailchimp-api-key',
    () => j(r(HEX, 32), '-us', r(DIGITS, 2)),
    () => j(r(HEX, 20), '-us', r(DIGITS, 2)),
  ],
];

/** One fresh sample (and near miss) per row of the sample table. */
export function drawVendorTokenSamples(): VendorTokenSample[] {
  return SAMPLES.map(([rule, make, nearMiss]) => ({ rule, value: make(), nearMiss: nearMiss() }));
}
