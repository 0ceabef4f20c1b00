/**
 * The API token as the page knows it. Kept in sessionStorage only: it lives as long as the tab,
 * never in localStorage or a cookie, so closing the tab forgets it (issue: "never stores it
 * anywhere but the browser session").
 */
const KEY = 'taskdown.apiToken';

export function readToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    // Storage can be unavailable (privacy modes); the page then asks again after a reload.
    return null;
  }
}

export function writeToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
  } catch {
    // See readToken: without storage the token only lives in this page's memory.
  }
}
