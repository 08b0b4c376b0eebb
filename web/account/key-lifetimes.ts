// An API key's lifetime: the ones offered, the one asked for, and where a key stands with its own.

/** The lifetimes the page offers a new API key; `never` sends no `expires_in_days`. */
export const KEY_LIFETIMES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
] as const;

/** What the page picks unless the person chooses otherwise: a key that does not last for ever. */
export const DEFAULT_KEY_LIFETIME = '90';

/** The body of POST /api-keys for a name and a lifetime among KEY_LIFETIMES (days, or `never`). */
export function newKeyBody(
  name: string,
  lifetime: string,
): { name: string; expires_in_days?: number } {
  const days = Number(lifetime);
  return Number.isInteger(days) ? { name, expires_in_days: days } : { name };
}

/** Where a key stands with its `expires_at` at `now` (epoch milliseconds). */
export function keyExpiry(expiresAt: string | null, now: number): 'never' | 'expires' | 'expired' {
  if (expiresAt === null) return 'never';
  return Date.parse(expiresAt) <= now ? 'expired' : 'expires';
}
