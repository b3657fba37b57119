import { base64 } from '@scure/base';

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export function encodePayload(json: string): string {
  return base64.encode(encoder.encode(json));
}

/** Decodes a base64 payload to its UTF-8 text; throws on bad base64 or bad UTF-8. */
export function decodePayload(payload: string): string {
  return strictDecoder.decode(base64.decode(payload));
}
