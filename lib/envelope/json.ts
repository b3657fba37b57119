import { isSafeNumber, parse, stringify } from 'lossless-json';

const INTEGER = /^-?\d+$/;

/**
 * JSON.parse that keeps integers above 2^53 exact (as bigint), for envelope `expires` and `nonce`.
 * Other numbers become doubles, as JSON.parse would make them (a u64 check then refuses them).
 */
export function parseJsonExact(text: string): unknown {
  return parse(text, null, (value) => (isSafeNumber(value) || !INTEGER.test(value) ? Number(value) : BigInt(value)));
}

/** JSON.stringify that writes bigint values as plain JSON numbers. */
export function stringifyJsonExact(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value cannot be serialised as JSON');
  return text;
}
