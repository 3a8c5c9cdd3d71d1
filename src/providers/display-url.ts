/** An endpoint URL without credentials or query, safe to show (a URL may carry `user:password@`). */
export function displayUrl(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(an unreadable base URL)';
  }
}
