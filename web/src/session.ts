// The API key lives in sessionStorage only: gone when the tab closes, never in a URL or a cookie.
const KEY = 'crestwatch.apiKey';

export function currentKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function signIn(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function signOut(): void {
  sessionStorage.removeItem(KEY);
}
