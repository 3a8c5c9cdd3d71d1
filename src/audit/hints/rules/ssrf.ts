import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './ssrf.examples.json' with { type: 'json' };
import { JS_DECLARATION_LINE } from '../matchers/js-declaration-line.js';

const HTTP_REQUEST: HintRule = {
  id: 'ssrf/request-input-http-request',
  category: 'ssrf',
  severity: 'high',
  description:
    'An HTTP client whose URL argument carries request input (medium when it arrives through a variable assigned from request input).',
  message:
    'Outbound request to a URL taken from request input; verify the host is allow-listed (internal addresses, cloud metadata, redirects).',
  matchers: [
    {
      kind: 'request-sink',
      languages: ['js'],
      isStringScanned: false,
      input: 'js',
      unless: JS_DECLARATION_LINE,
      keywords: [
        'fetch',
        'axios',
        'http.get',
        'http.request',
        'https.get',
        'https.request',
        'got',
        'request',
        'needle',
        'superagent',
        'undici',
      ],
      pattern:
        /(?<![\w$.])fetch\s*\(|\baxios(?:\.(?:get|post|put|patch|delete|head|request))?\s*\(|\b(?:http|https)\.(?:get|request)\s*\(|(?<![\w$.])got(?:\.(?:get|post|stream))?\s*\(|\bneedle(?:\.\w+)?\s*\(|\bsuperagent\.\w+\s*\(|\bundici\.(?:request|fetch)\s*\(|(?<![\w$.])request(?:\.(?:get|post))?\s*\(/,
    },
    {
      kind: 'request-sink',
      languages: ['python'],
      isStringScanned: false,
      input: 'python',
      keywords: [
        'requests',
        'urllib',
        'urlopen',
        'httpx',
        'session.get',
        'session.post',
        'session.put',
        'session.request',
        'client.get',
        'client.post',
        'client.put',
        'client.request',
        'http.get',
        'http.post',
        'http.put',
        'http.request',
        'httpconnection',
        'httpsconnection',
      ],
      pattern:
        /\brequests\.(?:get|post|put|patch|delete|head|options|request)\s*\(|\burllib(?:2|\.request)?\.(?:urlopen|Request|urlretrieve)\s*\(|(?<![\w.])urlopen\s*\(|\bhttpx\.(?:get|post|put|patch|delete|head|request|stream)\s*\(|\b(?:session|client|http)\.(?:get|post|put|request)\s*\(|\bHTTPS?Connection\s*\(/,
    },
    {
      kind: 'request-sink',
      languages: ['ruby'],
      isStringScanned: false,
      input: 'ruby',
      keywords: [
        'net::http',
        'uri.open',
        'uri.parse',
        'httparty',
        'restclient',
        'faraday',
        'typhoeus',
        'excon',
        'http.',
      ],
      pattern:
        /\bNet::HTTP\.(?:get|get_response|post_form|start|new)\b|\bURI\.(?:open|parse)\b|\b(?:HTTParty|RestClient|Faraday|Typhoeus|Excon|HTTP)\.(?:get|post|put|delete|head|new|request)\b/,
    },
    {
      kind: 'request-sink',
      languages: ['php'],
      isStringScanned: false,
      input: 'php',
      keywords: ['curl_init', 'curl_setopt', 'fsockopen', 'client', 'http', 'guzzle'],
      pattern:
        /\bcurl_init\s*\(|\bcurl_setopt\s*\([^,]*,\s*CURLOPT_URL\b|\bfsockopen\s*\(|\$(?:client|http|guzzle|httpClient)\w*->(?:get|post|put|request|getAsync|requestAsync)\s*\(|\bHttp::(?:get|post)\s*\(/,
    },
    {
      kind: 'request-sink',
      languages: ['java'],
      isStringScanned: false,
      input: 'java',
      keywords: [
        'new url',
        'url(',
        'httprequest.newbuilder',
        'uri.create',
        'resttemplate',
        'webclient',
        'uri(',
        'new httpget',
        'new httppost',
        'new httpput',
        'new httpdelete',
      ],
      pattern:
        /\bnew\s+URL\s*\(|(?<![\w.])URL\s*\(|\bHttpRequest\.newBuilder\s*\(|\bURI\.create\s*\(|\brestTemplate\.\w+\s*\(|\bWebClient\.\w+|\.uri\s*\(|\bnew\s+Http(?:Get|Post|Put|Delete)\s*\(|\.url\s*\(/,
    },
    {
      kind: 'request-sink',
      languages: ['go'],
      isStringScanned: false,
      input: 'go',
      keywords: [
        'http.get',
        'http.post',
        'http.head',
        'http.newrequest',
        'client.get',
        'client.post',
        'client.head',
        'httpclient.get',
        'httpclient.post',
        'httpclient.head',
      ],
      pattern:
        /\bhttp\.(?:Get|Post|PostForm|Head|NewRequest|NewRequestWithContext)\s*\(|\b(?:[cC]lient|httpClient)\.(?:Get|Post|Head)\s*\(/,
    },
    {
      kind: 'request-sink',
      languages: ['csharp'],
      isStringScanned: false,
      input: 'csharp',
      keywords: [
        'getasync',
        'postasync',
        'putasync',
        'deleteasync',
        'getstringasync',
        'getstreamasync',
        'getbytearrayasync',
        'sendasync',
        'downloadstring',
        'downloaddata',
        'downloadfile',
        'openread',
        'webrequest',
        'new uri',
        'new httprequestmessage',
      ],
      pattern:
        /\.(?:GetAsync|PostAsync|PutAsync|DeleteAsync|GetStringAsync|GetStreamAsync|GetByteArrayAsync|SendAsync|DownloadString|DownloadData|DownloadFile|OpenRead)\s*\(|\bWebRequest\.Create\s*\(|\bnew\s+(?:Uri|HttpRequestMessage)\s*\(/,
    },
    {
      kind: 'request-sink',
      languages: ['perl'],
      isStringScanned: false,
      input: 'perl',
      keywords: ['lwp', 'get', 'http', 'request'],
      pattern:
        /\bLWP::Simple::get\s*\(|(?<![\w:>$])get(?:store|print)?\s*\(\s*\$|->(?:get|request)\s*\(|\bHTTP::Tiny->new\b/,
    },
  ],
};

export const SSRF_CATEGORY: CategoryRules = {
  category: 'ssrf',
  label: 'Server-side request forgery',
  sinkKind: 'url',
  rules: [HTTP_REQUEST],
  examples: readExamples(EXAMPLES, 'ssrf.examples.json'),
};
