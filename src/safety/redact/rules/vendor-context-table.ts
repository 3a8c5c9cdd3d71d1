// One row per credential format that carries no prefix of its own and is told by the vendor's name
// in the key it is assigned to (`adafruit_io_key = ...`, `cloudflare: ...`). Each row is a fact: the
// id (the placeholder's name), the vendor words, and the value's published shape.

export interface VendorContextRow {
  id: string;
  description: string;
  /** Lowercase vendor words, one of which the key name must hold. */
  keywords: readonly string[];
  /** The whole value's shape (anchored when compiled). */
  shape: string;
  /** A made-up value of the shape for canaries and tests, in the notation of `fillTokenShape`. */
  sample: string;
}

const ALNUM = 'A-Za-z0-9';
const UUID = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}';
const alnum = (length: number | string): string => `[${ALNUM}]{${length}}`;
const urlSafe = (length: number | string): string => `[${ALNUM}=_-]{${length}}`;
const hex = (length: number | string): string => `[0-9a-fA-F]{${length}}`;
const row = (
  id: string,
  sample: string,
  description: string,
  keywords: readonly string[],
  shape: string,
): VendorContextRow => ({ id, description, keywords, shape, sample });

export const VENDOR_CONTEXT_TABLE: readonly VendorContextRow[] = [
  row('adafruit-api-key', '{u32}', 'An Adafruit IO key', ['adafruit'], urlSafe(32)),
  row(
    'airtable-api-key',
    'pat{A14}.{h64}',
    'An Airtable personal access token (pat, 14, a dot, 64 hex) or legacy API key',
    ['airtable'],
    `pat${alnum(14)}\\.${hex(64)}|${alnum(17)}`,
  ),
  row('algolia-api-key', '{A32}', 'An Algolia API key', ['algolia'], alnum(32)),
  row('alibaba-secret-key', '{A30}', 'An Alibaba Cloud access key secret', ['alibaba'], alnum(30)),
  row('asana-client-secret', '{A32}', 'An Asana client secret', ['asana'], alnum(32)),
  row(
    'jira-api-token',
    '{A20}{h4}',
    'An Atlassian, Jira or Confluence API token (24 characters)',
    ['atlassian', 'confluence', 'jira'],
    `${alnum(20)}${hex(4)}`,
  ),
  row('beamer-api-token', 'b_{u44}', 'A Beamer API key (b_)', ['beamer'], `b_${urlSafe(44)}`),
  row(
    'bitbucket-client-secret',
    '{u64}',
    'A Bitbucket OAuth client secret',
    ['bitbucket'],
    urlSafe(64),
  ),
  row('bittrex-api-key', '{A32}', 'A Bittrex API key or secret', ['bittrex'], alnum(32)),
  row('cisco-meraki-api-key', '{h40}', 'A Cisco Meraki API key', ['meraki'], hex(40)),
  row(
    'cloudflare-api-key',
    '{u40}',
    'A Cloudflare API token or global API key',
    ['cloudflare'],
    `[${ALNUM}_-]{40}|${hex(37)}`,
  ),
  row('codecov-access-token', '{A32}', 'A Codecov access token', ['codecov'], alnum(32)),
  row('cohere-api-key', '{A40}', 'A Cohere API key', ['cohere', 'co_api_key'], alnum(40)),
  row(
    'coinbase-access-token',
    '{u64}',
    'A Coinbase access token',
    ['coinbase'],
    `[${ALNUM}_-]{64}`,
  ),
  row(
    'confluent-api-secret',
    '{A64}',
    'A Confluent Cloud API key or secret',
    ['confluent'],
    `${alnum(16)}|${alnum(64)}`,
  ),
  row('contentful-token', '{u43}', 'A Contentful delivery API token', ['contentful'], urlSafe(43)),
  row('datadog-api-key', '{A40}', 'A Datadog API or application key', ['datadog'], alnum(40)),
  row(
    'discord-secret',
    '{h64}',
    'A Discord bot key or client secret',
    ['discord'],
    `${hex(64)}|${urlSafe(32)}`,
  ),
  row('droneci-access-token', '{A32}', 'A Drone CI access token', ['droneci'], alnum(32)),
  row(
    'dropbox-token',
    'sl.{u135}',
    'A Dropbox app secret, short-lived (sl.) or long-lived token',
    ['dropbox'],
    `${alnum(15)}|sl\\.${urlSafe(135)}|${alnum(11)}AAAAAAAAAA${urlSafe(43)}`,
  ),
  row('etsy-access-token', '{A24}', 'An Etsy API key', ['etsy'], alnum(24)),
  row('facebook-app-secret', '{h32}', 'A Facebook app secret', ['facebook'], hex(32)),
  row('fastly-api-token', '{u32}', 'A Fastly API token', ['fastly'], urlSafe(32)),
  row(
    'finicity-secret',
    '{A20}',
    'A Finicity API token or client secret',
    ['finicity'],
    `${hex(32)}|${alnum(20)}`,
  ),
  row('finnhub-access-token', '{A20}', 'A Finnhub API key', ['finnhub'], alnum(20)),
  row('flickr-access-token', '{A32}', 'A Flickr API key', ['flickr'], alnum(32)),
  row('freshbooks-access-token', '{A64}', 'A FreshBooks access token', ['freshbooks'], alnum(64)),
  row('gitter-access-token', '{u40}', 'A Gitter access token', ['gitter'], `[${ALNUM}_-]{40}`),
  row(
    'gocardless-api-token',
    'live_{u40}',
    'A GoCardless access token (live_)',
    ['gocardless'],
    `live_${urlSafe(40)}`,
  ),
  row(
    'heroku-legacy-api-key',
    '{h8}-{h4}-{h4}-{h4}-{h12}',
    'A Heroku API key (a UUID)',
    ['heroku'],
    UUID,
  ),
  row(
    'hubspot-api-key',
    '{H8}-{H4}-{H4}-{H4}-{H12}',
    'A HubSpot API key (a UUID)',
    ['hubspot'],
    UUID,
  ),
  row('intercom-api-key', '{u60}', 'An Intercom access token', ['intercom'], urlSafe(60)),
  row(
    'jfrog-token',
    '{A73}',
    'A JFrog, Artifactory, Bintray or Xray API key or identity token',
    ['jfrog', 'artifactory', 'bintray', 'xray'],
    `${alnum(73)}|${alnum(64)}`,
  ),
  row('kraken-access-token', '{b86}', 'A Kraken API secret', ['kraken'], `[${ALNUM}/=_+-]{80,90}`),
  row('kucoin-secret', '{h24}', 'A KuCoin API key or secret', ['kucoin'], `${hex(24)}|${UUID}`),
  row(
    'launchdarkly-access-token',
    '{u40}',
    'A LaunchDarkly access token',
    ['launchdarkly'],
    urlSafe(40),
  ),
  row('linear-client-secret', '{h32}', 'A Linear OAuth client secret', ['linear'], hex(32)),
  row(
    'linkedin-client-secret',
    '{A16}',
    'A LinkedIn client secret',
    ['linkedin', 'linked_in', 'linked-in'],
    alnum(16),
  ),
  row(
    'lob-api-key',
    'live_{h35}',
    'A Lob API key (live_, test_, live_pub_, test_pub_)',
    ['lob'],
    `(?:live|test)_${hex(35)}|(?:live|test)_pub_${hex(31)}`,
  ),
  row(
    'looker-client-secret',
    '{A24}',
    'A Looker API client secret',
    ['looker'],
    `${alnum(24)}|${alnum(32)}`,
  ),
  row(
    'mailgun-signing-key',
    '{h32}-{h8}-{h8}',
    'A Mailgun webhook signing key or public validation key',
    ['mailgun'],
    `[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}|pubkey-${hex(32)}`,
  ),
  row(
    'mapbox-api-token',
    'pk.{A60}.{A22}',
    'A Mapbox public token (pk.)',
    ['mapbox'],
    `pk\\.${alnum(60)}\\.${alnum(22)}|pk\\.eyJ[${ALNUM}_-]{20,}\\.[${ALNUM}_-]{20,}`,
  ),
  row('mattermost-access-token', '{a26}', 'A Mattermost access token', ['mattermost'], alnum(26)),
  row(
    'messagebird-api-token',
    '{A25}',
    'A MessageBird API key',
    ['messagebird', 'message-bird', 'message_bird'],
    alnum(25),
  ),
  row('netlify-access-token', '{u43}', 'A Netlify access token', ['netlify'], urlSafe('40,46')),
  row(
    'newrelic-user-api-id',
    '{A64}',
    'A New Relic user API id',
    ['new-relic', 'newrelic', 'new_relic'],
    alnum(64),
  ),
  row(
    'nytimes-access-token',
    '{u32}',
    'A New York Times API key',
    ['nytimes', 'new-york-times', 'newyorktimes'],
    urlSafe(32),
  ),
  row(
    'okta-access-token',
    '00{u40}',
    'An Okta API token (00 and 40)',
    ['okta'],
    `00${urlSafe(40)}`,
  ),
  row(
    'plaid-secret',
    'access-sandbox-{h8}-{h4}-{h4}-{h4}-{h12}',
    'A Plaid access token or secret',
    ['plaid'],
    `access-(?:sandbox|development|production)-${UUID}|${alnum(30)}`,
  ),
  row(
    'privateai-api-token',
    '{A32}',
    'A Private AI API key',
    ['privateai', 'private_ai', 'private-ai'],
    alnum(32),
  ),
  row('rapidapi-access-token', '{u50}', 'A RapidAPI key', ['rapidapi'], `[${ALNUM}_-]{50}`),
  row(
    'sendbird-access-token',
    '{h40}',
    'A Sendbird API token or app id',
    ['sendbird'],
    `${hex(40)}|${UUID}`,
  ),
  row('sentry-legacy-token', '{h64}', 'A Sentry auth token (64 hex)', ['sentry'], hex(64)),
  row(
    'sidekiq-secret',
    '{h8}:{h8}',
    'A Sidekiq Enterprise or Pro licence credential',
    ['bundle_enterprise__contribsys__com', 'bundle_gems__contribsys__com'],
    `${hex(8)}:${hex(8)}`,
  ),
  row('snyk-api-token', '{h8}-{h4}-{h4}-{h4}-{h12}', 'A Snyk API token (a UUID)', ['snyk'], UUID),
  row(
    'sonar-api-token',
    '{u40}',
    'A SonarQube or SonarCloud token',
    ['sonar'],
    `(?:sq[pau]_)?${urlSafe(40)}`,
  ),
  row(
    'sourcegraph-access-token',
    '{h40}',
    'A Sourcegraph access token (40 hex)',
    ['sourcegraph'],
    hex(40),
  ),
  row(
    'squarespace-access-token',
    '{h8}-{h4}-{h4}-{h4}-{h12}',
    'A Squarespace API key (a UUID)',
    ['squarespace'],
    UUID,
  ),
  row(
    'sumologic-access-key',
    'su{A12}',
    'A Sumo Logic access id or key',
    ['sumo'],
    `su${alnum(12)}|${alnum(64)}`,
  ),
  row(
    'telegram-api-token',
    '{d9}:A{u34}',
    'A Telegram bot token (5 to 16 digits, :A, then 34)',
    ['telegr'],
    `\\d{5,16}:A[${ALNUM}_-]{34}`,
  ),
  row('travisci-access-token', '{A22}', 'A Travis CI access token', ['travis'], alnum(22)),
  row('twitch-api-token', '{a30}', 'A Twitch API token', ['twitch'], alnum(30)),
  row(
    'twitter-secret',
    '{A50}',
    'A Twitter API key, secret, access token or bearer token',
    ['twitter'],
    `${alnum(25)}|${alnum(45)}|${alnum(50)}|\\d{15,25}-${alnum('20,40')}|A{22}[${ALNUM}%]{80,100}`,
  ),
  row(
    'yandex-secret',
    'YC{u38}',
    'A Yandex access token (t1.) or AWS-compatible key (YC)',
    ['yandex'],
    `t1\\.[${ALNUM}_-]+={0,2}\\.[${ALNUM}_-]{86}={0,2}|YC[${ALNUM}_-]{38}`,
  ),
  row('zendesk-secret-key', '{A40}', 'A Zendesk API token', ['zendesk'], alnum(40)),
];
