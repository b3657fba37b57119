/**
 * The one reader of numeric settings (a Worker's vars, a key's stored limits): the value when it is a finite
 * number of at least `min` (by default: above zero), else `fallback`, so that a typo in a config falls back to
 * the default instead of to zero, NaN or no limit. Empty text is no number (`Number('')` would be 0).
 */
export function envNumber(value: unknown, fallback: number, options: { min?: number; integer?: boolean } = {}): number {
  if (value === '' || value === null || value === undefined || typeof value === 'boolean') return fallback;
  const parsed = Number(value);
  // Rounded before the check, so that "0.5" for a count falls back instead of becoming 0.
  const number = options.integer ? Math.floor(parsed) : parsed;
  const { min } = options;
  const usable = Number.isFinite(number) && (min === undefined ? number > 0 : number >= min);
  return usable ? number : fallback;
}

/** A count (a limit, a bound): a whole number above zero, else `fallback`. */
export const envCount = (value: unknown, fallback: number) => envNumber(value, fallback, { integer: true });
