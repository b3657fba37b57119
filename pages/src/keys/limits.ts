import type { KeyLimits } from '../../../schemas/keys.ts';

/** The per-key chat limits, in the order and with the labels the key table and its editor show. */
export const LIMIT_FIELDS = [
  { field: 'requests_per_minute', label: 'Requests / minute', short: 'requests/min' },
  { field: 'tokens_per_minute', label: 'Tokens / minute', short: 'tokens/min' },
] as const satisfies readonly { field: keyof KeyLimits; label: string; short: string }[];
export type LimitField = (typeof LIMIT_FIELDS)[number]['field'];

/** A limit as the table shows it: the number, or "default" when the key leaves it to the deployment. */
export function limitText(limits: KeyLimits | null, field: LimitField): string {
  const value = limits?.[field];
  return value == null ? 'default' : String(value);
}

/** What is in one number input: its text, and whether the browser could not read it as a number (`validity.badInput`). */
export interface LimitInput {
  text: string;
  bad: boolean;
}

export function limitInput(limits: KeyLimits | null, field: LimitField): LimitInput {
  const value = limits?.[field];
  return { text: value == null ? '' : String(value), bad: false };
}

/**
 * The editor's inputs as the `limits` of a PATCH: an empty input leaves that limit to the default, both empty is
 * null (all defaults). A value that is not a whole number of at least 1 is refused here, before anything is sent;
 * the upper bounds are the registry's to check (its 400 names the field).
 */
export function parseLimits(inputs: Record<LimitField, LimitInput>): { limits: KeyLimits | null } | { error: string } {
  const limits: KeyLimits = {};
  for (const { field, label } of LIMIT_FIELDS) {
    const { text, bad } = inputs[field];
    if (!bad && text.trim() === '') continue;
    const value = Number(text);
    if (bad || !Number.isInteger(value) || value < 1) {
      const typed = bad ? 'that is not a number' : `“${text.trim()}” is not a whole number of at least 1`;
      return { error: `${label}: ${typed}. Enter a whole number of at least 1, or leave it empty for the default.` };
    }
    limits[field] = value;
  }
  return { limits: Object.keys(limits).length ? limits : null };
}
