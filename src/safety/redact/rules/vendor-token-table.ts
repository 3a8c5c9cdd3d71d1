// One row per vendor token format that names itself by a fixed prefix. Formats are the vendors'
// published shapes; each row is a fact: id (the placeholder's name), keywords, and the sticky pattern
// tried where a keyword starts. Patterns state the token alone: what is glued to it on either side
// is judged by `takeGluedToken`, the same for every row.

export interface VendorTokenRow {
  id: string;
  description: string;
  keywords: readonly string[];
  /** The token alone, with no lookaround at its edges: glue on either side is judged apart. */
  pattern: RegExp;
  /** A further shape check of the value, where the prefix alone is weak (`EAAA`, `4b1d`). */
  hasShape?: (value: string) => boolean;
}

const row = (
  id: string,
  description: string,
  keywords: readonly string[],
  source: string,
  flags = 'y',
  hasShape?: (value: string) => boolean,
): VendorTokenRow => ({
  id,
  description,
  keywords,
  pattern: new RegExp(source, flags),
  ...(hasShape && { hasShape }),
});
// Random base62 of this length holds both cases; hex digests and base64 of repeated bytes do not.
const hasMixedCase = (value: string): boolean => /[a-z]/.test(value) && /[A-Z]/.test(value);

export const VENDOR_TOKEN_TABLE: readonly VendorTokenRow[] = [
  row('huggingface-token', 'A Hugging Face access token (hf_)', ['hf_'], 'hf_[A-Za-z0-9]{34}'),
  row(
    'huggingface-org-token',
    'A Hugging Face organisation token (api_org_)',
    ['api_org_'],
    'api_org_[A-Za-z0-9]{34}',
  ),
  row(
    'slack-app-token',
    'A Slack app-level token (xapp-)',
    ['xapp-'],
    String.raw`xapp-\d-[A-Z0-9]{8,20}-\d{8,20}-[a-z0-9]{40,80}`,
    'iy',
  ),
  row(
    'slack-legacy-token',
    'A Slack legacy token (xoxo-)',
    ['xoxo-'],
    String.raw`xoxo-\d{3,20}-\d{3,20}-\d{3,20}-[a-z0-9]{8,64}`,
    'iy',
  ),
  row(
    'gitlab-agent-token',
    'A GitLab token of another family (glagent-, gloas-, glft-, glimt-, glffct-)',
    ['glagent-', 'gloas-', 'glft-', 'glimt-', 'glffct-'],
    'gl(?:agent|oas|ft|imt|ffct)-[A-Za-z0-9_-]{20,255}',
  ),
  row(
    'gitlab-runner-registration-token',
    'A GitLab runner registration token (GR1348941)',
    ['gr1348941'],
    'GR1348941[A-Za-z0-9_-]{20}',
  ),
  row(
    'gitlab-session-cookie',
    'A GitLab session cookie (_gitlab_session=)',
    ['_gitlab_session'],
    String.raw`_gitlab_session\s*=\s*([0-9a-z]{32})`,
    'dy',
  ),
  row(
    'shopify-token',
    'A Shopify token or shared secret (shpat_, shpca_, shppa_, shpss_)',
    ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}',
  ),
  row(
    'digitalocean-token',
    'A DigitalOcean token (dop_v1_, doo_v1_, dor_v1_)',
    ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    'do[opr]_v1_[a-f0-9]{64}',
  ),
  row(
    'sentry-token',
    'A Sentry organisation or user token (sntrys_, sntryu_)',
    ['sntrys_', 'sntryu_'],
    String.raw`sntry(?:s_eyJ[A-Za-z0-9+/=_]{60,1000}|u_[a-f0-9]{64})`,
  ),
  row(
    '1password-service-token',
    'A 1Password service-account token (ops_eyJ)',
    ['ops_eyj'],
    'ops_eyJ[A-Za-z0-9+/]{200,2000}={0,3}',
  ),
  row(
    '1password-secret-key',
    'A 1Password account secret key (A3-)',
    ['a3-'],
    'A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}',
  ),
  row(
    'grafana-token',
    'A Grafana Cloud or service-account token (glc_, glsa_)',
    ['glc_', 'glsa_'],
    'gl(?:c_[A-Za-z0-9+/]{32,400}={0,2}|sa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})',
  ),
  row(
    'grafana-api-key',
    'A legacy Grafana API key (eyJrIjoi)',
    ['eyjrijoi'],
    'eyJrIjoi[A-Za-z0-9]{70,400}={0,2}',
  ),
  row(
    'databricks-token',
    'A Databricks access token (dapi)',
    ['dapi'],
    String.raw`dapi[a-f0-9]{32}(?:-\d)?`,
  ),
  row(
    'notion-token',
    'A Notion integration token (ntn_)',
    ['ntn_'],
    'ntn_[0-9]{11}[A-Za-z0-9]{32,40}',
  ),
  row(
    'postman-api-key',
    'A Postman API key (PMAK-)',
    ['pmak-'],
    'PMAK-[a-f0-9]{24}-[a-f0-9]{34}',
    'iy',
  ),
  row(
    'doppler-token',
    'A Doppler token (dp.pt., dp.st., dp.ct., dp.sa., dp.scim., dp.audit.)',
    ['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'],
    String.raw`dp\.(?:pt|ct|st(?:\.[a-z0-9_-]{2,35})?|sa|scim|audit)\.[A-Za-z0-9]{40,44}`,
  ),
  row('pulumi-token', 'A Pulumi access token (pul-)', ['pul-'], 'pul-[a-f0-9]{40}'),
  row('linear-api-key', 'A Linear API key (lin_api_)', ['lin_api_'], 'lin_api_[A-Za-z0-9]{40}'),
  row(
    'planetscale-token',
    'A PlanetScale token or password (pscale_tkn_, pscale_oauth_, pscale_pw_)',
    ['pscale_tkn_', 'pscale_oauth_', 'pscale_pw_'],
    'pscale_(?:tkn|oauth|pw)_[A-Za-z0-9=._-]{32,64}',
  ),
  row(
    'flyio-token',
    'A Fly.io token (fo1_, fm1a_, fm1r_, fm2_, FlyV1)',
    ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'],
    String.raw`(?:fo1_[A-Za-z0-9_-]{43}|fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3}(?:,fm\d[a-z]?_[A-Za-z0-9+/]{30,}={0,3})*)`,
  ),
  row('heroku-api-key', 'A Heroku API key (HRKU-)', ['hrku-'], 'HRKU-[A-Za-z0-9_-]{50,70}'),
  row('perplexity-api-key', 'A Perplexity API key (pplx-)', ['pplx-'], 'pplx-[A-Za-z0-9]{48}'),
  row(
    'cloudflare-origin-ca-key',
    'A Cloudflare origin CA key (v1.0-)',
    ['v1.0-'],
    'v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}',
  ),
  row(
    'aws-bedrock-api-key',
    'An Amazon Bedrock API key (ABSK, bedrock-api-key-)',
    ['absk', 'bedrock-api-key-'],
    '(?:ABSK[A-Za-z0-9+/]{100,300}={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%&_.-]{40,})',
  ),
  row(
    'vault-token',
    'A HashiCorp Vault token (hvs., hvb., hvr.)',
    ['hvs.', 'hvb.', 'hvr.'],
    String.raw`hv[sbr]\.[A-Za-z0-9_-]{90,400}`,
  ),
  row(
    'stripe-key',
    'A Stripe test or production key (sk_test_, sk_prod_, rk_test_, rk_prod_)',
    ['sk_test_', 'sk_prod_', 'rk_test_', 'rk_prod_'],
    '[sr]k_(?:test|prod)_[A-Za-z0-9]{10,247}',
  ),
  row('adobe-client-secret', 'An Adobe client secret (p8e-)', ['p8e-'], 'p8e-[A-Za-z0-9]{32}'),
  row(
    'alibaba-access-key-id',
    'An Alibaba Cloud access key id (LTAI)',
    ['ltai'],
    'LTAI[A-Za-z0-9]{20}',
  ),
  row(
    'artifactory-token',
    'A JFrog Artifactory API key or reference token (AKCp, cmVmdGtu)',
    ['akcp', 'cmvmd'],
    '(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})',
  ),
  row(
    'clojars-token',
    'A Clojars deploy token (CLOJARS_)',
    ['clojars_'],
    'CLOJARS_[a-z0-9]{60}',
    'iy',
  ),
  row(
    'dynatrace-token',
    'A Dynatrace API token (dt0c01.)',
    ['dt0c01.'],
    String.raw`dt0c01\.[a-z0-9]{24}\.[a-z0-9]{64}`,
    'iy',
  ),
  row(
    'easypost-api-key',
    'An EasyPost API key (EZAK, EZTK)',
    ['ezak', 'eztk'],
    'EZ[AT]K[A-Za-z0-9]{54}',
  ),
  row(
    'facebook-page-token',
    'A Facebook access token (EAAM, EAAC)',
    ['eaam', 'eaac'],
    'EAA[MC][A-Za-z0-9]{100,400}',
  ),
  row(
    'flutterwave-key',
    'A Flutterwave key (FLWSECK_TEST-, FLWPUBK_TEST-)',
    ['flwseck', 'flwpubk'],
    String.raw`FLW(?:SEC|PUB)K(?:_TEST)?-(?:[a-h0-9]{32}-X|[a-h0-9]{12})`,
    'iy',
  ),
  row('frameio-token', 'A Frame.io API token (fio-u-)', ['fio-u-'], 'fio-u-[A-Za-z0-9_=-]{64}'),
  row(
    'infracost-token',
    'An Infracost API token (ico-)',
    ['ico-'],
    // Mixed case, as 32 random letters and digits are: `pubblico-<hex id>`, `favicon.ico-<hash>` are names.
    'ico-[A-Za-z0-9]{32}',
    'y',
    hasMixedCase,
  ),
  row(
    'intra42-client-secret',
    'A 42 intra client secret (s-s4t2ud-, s-s4t2af-)',
    ['s-s4t2'],
    's-s4t2(?:ud|af)-[a-f0-9]{64}',
  ),
  row(
    'harness-token',
    'A Harness personal or service token (pat., sat.)',
    ['pat.', 'sat.'],
    String.raw`(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[a-z0-9]{24}\.[A-Za-z0-9]{20}`,
    'iy',
  ),
  row('octopus-deploy-api-key', 'An Octopus Deploy API key (API-)', ['api-'], 'API-[A-Z0-9]{26}'),
  row(
    'openshift-token',
    'An OpenShift user token (sha256~)',
    ['sha256~'],
    'sha256~[A-Za-z0-9_-]{43}',
  ),
  row('prefect-token', 'A Prefect API token (pnu_)', ['pnu_'], 'pnu_[A-Za-z0-9]{36}'),
  row('readme-api-token', 'A ReadMe API token (rdme_)', ['rdme_'], 'rdme_[a-z0-9]{70}'),
  row('rubygems-token', 'A RubyGems API key (rubygems_)', ['rubygems_'], 'rubygems_[a-f0-9]{48}'),
  row('scalingo-token', 'A Scalingo API token (tk-us-)', ['tk-us-'], 'tk-us-[A-Za-z0-9_-]{48}'),
  row(
    'brevo-api-key',
    'A Brevo (Sendinblue) API key (xkeysib-, xsmtpsib-)',
    ['xkeysib-', 'xsmtpsib-'],
    'x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}',
  ),
  row(
    'settlemint-token',
    'A SettleMint token (sm_aat_, sm_pat_, sm_sat_)',
    ['sm_aat_', 'sm_pat_', 'sm_sat_'],
    'sm_[aps]at_[A-Za-z0-9]{16}',
  ),
  row(
    'shippo-token',
    'A Shippo API token (shippo_live_, shippo_test_)',
    ['shippo_'],
    'shippo_(?:live|test)_[a-fA-F0-9]{40}',
  ),
  row(
    'sourcegraph-token',
    'A Sourcegraph access token (sgp_)',
    ['sgp_'],
    'sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}',
  ),
  row(
    'square-token',
    'A Square access token or secret (sq0atp-, sq0csp-, EAAA)',
    ['sq0atp-', 'sq0csp-'],
    'sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}',
  ),
  row(
    'square-oauth-token',
    'A Square OAuth access token (EAAA)',
    ['eaaa'],
    // `EAAA` is common inside base64 runs; the glue judgement leaves a token in the middle of one.
    'EAAA[A-Za-z0-9_-]{22,60}',
    'y',
    hasMixedCase,
  ),
  row(
    'clickhouse-api-secret',
    'A ClickHouse Cloud API secret (4b1d and 38 characters)',
    ['4b1d'],
    '4b1d[A-Za-z0-9]{38}',
    'y',
    hasMixedCase,
  ),
  row(
    'duffel-token',
    'A Duffel API token (duffel_test_, duffel_live_)',
    ['duffel_'],
    'duffel_(?:test|live)_[A-Za-z0-9_=-]{43}',
  ),
  row(
    'age-secret-key',
    'An age secret key (AGE-SECRET-KEY-1)',
    ['age-secret-key-1'],
    'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}',
  ),
  row(
    'atlassian-api-token',
    'An Atlassian API token (ATATT3)',
    ['atatt3'],
    'ATATT3[A-Za-z0-9_=-]{186}',
  ),
  row('confluent-key', 'A Confluent or Kafka API secret (cflt)', ['cflt'], 'cflt[A-Za-z0-9+/]{60}'),
  row(
    'defined-networking-token',
    'A Defined Networking API token (dnkey-)',
    ['dnkey-'],
    'dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}',
    'iy',
  ),
  row('droneci-token', 'A Drone CI token (drone_)', ['drone_'], 'drone_[a-z0-9]{32}'),
  row(
    'mapbox-token',
    'A Mapbox secret token (sk.eyJ)',
    ['sk.eyj'],
    String.raw`sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}`,
  ),
  row(
    'newrelic-key',
    'A New Relic key (NRAK-, NRJS-, NRII-)',
    ['nrak-', 'nrjs-', 'nrii-'],
    'NR(?:AK|JS|II)-[A-Za-z0-9]{19,32}',
  ),
  row('typeform-token', 'A Typeform token (tfp_)', ['tfp_'], 'tfp_[A-Za-z0-9_.=-]{59}'),
  row('yandex-token', 'A Yandex token (t1., YC, AQVN)', ['aqvn'], 'AQVN[A-Za-z0-9_-]{35,38}'),
  row(
    'zapier-webhook',
    'A Zapier webhook (hooks.zapier.com)',
    ['hooks.zapier.com'],
    String.raw`hooks\.zapier\.com/hooks/catch/\d+/[A-Za-z0-9]+`,
  ),
  row(
    'discord-webhook',
    'A Discord webhook URL',
    ['discord.com/api/webhooks/', 'discordapp.com/api/webhooks/'],
    String.raw`discord(?:app)?\.com/api/webhooks/\d{5,30}/[A-Za-z0-9_-]{20,100}`,
  ),
  row(
    'teams-webhook',
    'A Microsoft Teams / Office 365 connector webhook URL',
    ['webhook.office.com', 'outlook.office.com/webhook'],
    String.raw`(?:webhook|outlook)\.office\.com/webhook(?:b2)?/[A-Za-z0-9@/_-]{30,400}`,
  ),
  row(
    'logic-apps-webhook-signature',
    'The sig= of a Logic Apps or Power Automate webhook URL',
    ['logic.azure.com', 'powerplatform.com'],
    String.raw`(?:logic\.azure|powerplatform)\.com[^\s"'<>]{0,400}?[?&]sig=([A-Za-z0-9_-]{40,50})`,
    'dy',
  ),
];
