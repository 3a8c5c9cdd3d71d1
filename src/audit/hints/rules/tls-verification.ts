import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './tls-verification.examples.json' with { type: 'json' };

const VERIFICATION_DISABLED: HintRule = {
  id: 'tls/verification-disabled',
  category: 'tls-verification',
  severity: 'high',
  description:
    'TLS certificate or host-name verification turned off (rejectUnauthorized: false, verify=False, InsecureSkipVerify, curl -k, trust-all managers, ...).',
  message:
    'TLS certificate verification is disabled, so the connection can be intercepted; verify this never runs outside local tests.',
  matchers: [
    {
      kind: 'code',
      languages: ['any'],
      keywords: ['node_tls_reject_unauthorized'],
      pattern: /\bNODE_TLS_REJECT_UNAUTHORIZED\b["']?\s*\]?\s*[=:]?\s*["']?0\b/,
    },
    {
      kind: 'code',
      languages: ['js', 'template'],
      keywords: ['rejectunauthorized', 'strictssl', 'checkserveridentity'],
      pattern:
        /\brejectUnauthorized\s*:\s*false\b|\bstrictSSL\s*:\s*false\b|\bcheckServerIdentity\s*:\s*(?:\(\s*\)|\w+)\s*=>\s*(?:undefined|null|\{\s*\}|true)/,
    },
    {
      kind: 'code',
      languages: ['python'],
      keywords: ['verify', 'cert_none', 'check_hostname', '_create_unverified_context'],
      pattern:
        /\bverify\s*=\s*False\b|\b(?:verify_mode|cert_reqs)\s*=\s*(?:ssl\.)?CERT_NONE\b|\bcheck_hostname\s*=\s*False\b|\b_create_unverified_context\s*\(/,
      // verify=False on a JWT decode is the jwt rule's business.
      near: { before: 3, after: 0, forbids: /\bjwt\b|verify_signature/i },
    },
    {
      kind: 'code',
      languages: ['go'],
      keywords: ['insecureskipverify'],
      pattern: /\bInsecureSkipVerify\s*:\s*true\b/,
    },
    {
      kind: 'code',
      languages: ['php'],
      keywords: ['curlopt_ssl_verifypeer', 'curlopt_ssl_verifyhost', 'verify'],
      pattern:
        /\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\s*(?:=>|,)\s*(?:false|0)\b|["']verify(?:_peer(?:_name)?)?["']\s*=>\s*false\b/i,
    },
    {
      kind: 'code',
      languages: ['java', 'csharp'],
      keywords: [
        'trustall',
        'trust_all',
        'allow_all_hostname_verifier',
        'noophostnameverifier',
        'allowallhostnameverifier',
        'sethostnameverifier',
        'insecuretrustmanagerfactory',
      ],
      pattern:
        /\b[Tt]rust_?[Aa]ll\w*|\bALLOW_ALL_HOSTNAME_VERIFIER\b|\bNoopHostnameVerifier\b|\bAllowAllHostnameVerifier\b|\bsetHostnameVerifier\s*\(\s*\(?[\w\s,]*\)?\s*->\s*true|\bInsecureTrustManagerFactory\b/,
    },
    {
      kind: 'code',
      languages: ['csharp'],
      keywords: ['servercertificate', 'dangerousacceptanyservercertificatevalidator'],
      pattern:
        /\bServerCertificate(?:Custom)?ValidationCallback\s*\+?=\s*(?:\([^)]*\)|\w+|delegate\b[^{]*)\s*(?:=>)?\s*\{?\s*(?:return\s+)?true\b|\bDangerousAcceptAnyServerCertificateValidator\b/,
    },
    {
      kind: 'code',
      languages: ['ruby'],
      keywords: ['verify_none', 'verify_mode', 'ssl_verify'],
      pattern: /\bVERIFY_NONE\b|\bssl_verify(?:_peer)?\s*(?::|=>)\s*false\b/,
    },
    {
      kind: 'code',
      languages: ['perl'],
      keywords: ['verify_hostname', 'ssl_verify_mode', 'perl_lwp_ssl_verify_hostname'],
      pattern:
        /\bverify_hostname\s*=>\s*0\b|\bSSL_verify_mode\s*=>\s*(?:0\b|SSL_VERIFY_NONE)|PERL_LWP_SSL_VERIFY_HOSTNAME\b["']?\}?\s*=\s*0\b/,
    },
    {
      kind: 'code',
      languages: ['shell'],
      keywords: [
        'curl',
        'wget',
        'git',
        'http.sslverify',
        'npm',
        'yarn',
        'pythonhttpsverify',
        'git_ssl_no_verify',
      ],
      pattern:
        /\bcurl\b[^|;&#\n]*\s(?:-[A-Za-z]*k[A-Za-z]*|--insecure)(?=\s|$)|\bwget\b[^|;&#\n]*\s--no-check-certificate\b|\bhttp\.sslVerify\s*(?:=\s*)?["']?false\b|\bGIT_SSL_NO_VERIFY\s*=\s*["']?(?:1|true)\b|\b(?:npm|yarn)\s+config\s+set\s+strict-ssl\s+false\b|\bPYTHONHTTPSVERIFY\s*=\s*["']?0\b/i,
    },
  ],
};

export const TLS_VERIFICATION_CATEGORY: CategoryRules = {
  category: 'tls-verification',
  label: 'TLS verification disabled',
  rules: [VERIFICATION_DISABLED],
  examples: readExamples(EXAMPLES, 'tls-verification.examples.json'),
};
