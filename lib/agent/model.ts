import type { z } from 'zod';
import { schemaDigest } from '../envelope/index.ts';

/** What `send` puts in an envelope: the payload and the digests that name its model. */
export interface Message<Payload = unknown> {
  schemaDigest: string;
  protocolDigest: string | null;
  payload: Payload;
}

/**
 * A message model: a zod object with a title, identified on the wire by the uAgents schema digest (the
 * same digest Python computes for the pydantic model of that title and fields). Calling it validates a
 * payload and makes a Message.
 */
export interface Model<Schema extends z.ZodObject = z.ZodObject> {
  (payload: z.input<Schema>): Message<z.output<Schema>>;
  readonly title: string;
  readonly schema: Schema;
  readonly digest: string;
  readonly protocolDigest: string | null;
}

export function model<Schema extends z.ZodObject>(title: string, schema: Schema, options: { protocolDigest?: string } = {}): Model<Schema> {
  const digest = schemaDigest(title, schema);
  const protocolDigest = options.protocolDigest ?? null;
  const make = (payload: z.input<Schema>): Message<z.output<Schema>> => ({
    schemaDigest: digest,
    protocolDigest,
    payload: schema.parse(payload),
  });
  return Object.assign(make, { title, schema, digest, protocolDigest });
}

/** A message with digests of the caller's choosing (e.g. a plain JSON payload under the chat protocol's digests). */
export function rawMessage<Payload>(payload: Payload, digests: { schemaDigest: string; protocolDigest?: string | null }): Message<Payload> {
  return { schemaDigest: digests.schemaDigest, protocolDigest: digests.protocolDigest ?? null, payload };
}
