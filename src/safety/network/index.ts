export { classifyAddress, type AddressClass } from './classify-address.js';
export { checkRequestHeaders, type HeaderCheck } from './check-request-headers.js';
export { checkUrl, type RedactText, type UrlCheck } from './check-url.js';
export {
  FETCH_TIMEOUT_MS,
  guardedFetch,
  MAX_FETCH_BYTES,
  MAX_REDIRECTS,
  type FetchFailureKind,
  type FetchResult,
  type GuardedFetchOptions,
} from './guarded-fetch.js';
export { ConversionStopped } from './convert-in-child.js';
export {
  htmlToMarkdown,
  MAX_HTML_DEPTH,
  MAX_HTML_MARKDOWN_CHARS,
  type HtmlConversion,
  type HtmlConversionOptions,
} from './html-to-markdown.js';
export type { AllowAddressForTests, LookupAll } from './resolve-public-address.js';
