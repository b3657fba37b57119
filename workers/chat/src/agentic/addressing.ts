import { isValidAddress } from '../../../../schemas/address.ts';

/** An agent the user named in the message: `@handle` or its `agent1…` address. */
export type Mention = { kind: 'handle'; handle: string } | { kind: 'address'; address: string };

// Linear: one pass of a bounded character class each, no nested repetition.
const HANDLE = /(?:^|\s)@([A-Za-z0-9][A-Za-z0-9_-]{0,39})(?=$|[\s,.:;!?])/;
const ADDRESS = /\bagent1[02-9ac-hj-np-z]{40,100}\b/;

/**
 * The agent the last user message addresses directly, and the message without the mention (what the agent
 * is sent). An address counts only when it is a valid agent address; a handle is taken as written.
 */
export function findMention(text: string): { mention: Mention; rest: string } | null {
  const handle = HANDLE.exec(text);
  if (handle) return { mention: { kind: 'handle', handle: handle[1]! }, rest: without(text, handle.index, handle[0].length) };
  const address = ADDRESS.exec(text);
  if (address && isValidAddress(address[0])) {
    return { mention: { kind: 'address', address: address[0] }, rest: without(text, address.index, address[0].length) };
  }
  return null;
}

function without(text: string, at: number, length: number): string {
  return `${text.slice(0, at)} ${text.slice(at + length)}`.replace(/\s+/g, ' ').trim();
}
