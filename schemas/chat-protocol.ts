import { z } from 'zod';

/**
 * The uAgents chat protocol (`uagents_core.contrib.protocols.chat`, AgentChatProtocol 0.3.0), field for field:
 * the titles, field order and formats are part of the schema digests (lib/agent/chat-protocol.ts), so they
 * follow the pydantic models exactly. `format` names pydantic's JSON-schema format (UUID4 → `uuid4`).
 */
const uuid4 = () => z.uuidv4().meta({ format: 'uuid4' });
/** pydantic's `datetime`: ISO 8601; Python senders may omit the offset (a naive UTC time). */
const datetime = () => z.iso.datetime({ offset: true, local: true }).meta({ format: 'date-time' });
const stringMap = () => z.record(z.string(), z.string());

export const textContentSchema = z.object({ type: z.literal('text'), text: z.string() }).meta({ title: 'TextContent' });

export const resourceSchema = z.object({ uri: z.string(), metadata: stringMap() }).meta({ title: 'Resource' });

export const resourceContentSchema = z
  .object({
    type: z.literal('resource'),
    resource_id: uuid4(),
    // The first resource of a list is the primary one; the others accompany it (thumbnails, audio tracks).
    resource: z.union([resourceSchema, z.array(resourceSchema)]),
  })
  .meta({ title: 'ResourceContent' });

export const metadataContentSchema = z.object({ type: z.literal('metadata'), metadata: stringMap() }).meta({ title: 'MetadataContent' });

export const startSessionContentSchema = z.object({ type: z.literal('start-session') }).meta({ title: 'StartSessionContent' });

export const endSessionContentSchema = z.object({ type: z.literal('end-session') }).meta({ title: 'EndSessionContent' });

export const startStreamContentSchema = z
  .object({ type: z.literal('start-stream'), stream_id: uuid4() })
  .meta({ title: 'StartStreamContent' });

export const endStreamContentSchema = z.object({ type: z.literal('end-stream'), stream_id: uuid4() }).meta({ title: 'EndStreamContent' });

/** One item of a chat message, told apart by `type` (the order is uagents' `AgentContent` union, part of the digest). */
export const agentContentSchema = z.discriminatedUnion('type', [
  textContentSchema,
  resourceContentSchema,
  metadataContentSchema,
  startSessionContentSchema,
  endSessionContentSchema,
  startStreamContentSchema,
  endStreamContentSchema,
]);

/** A chat message: `msg_id` is chosen by its sender and acknowledged by the receiver. */
export const chatMessageSchema = z.object({ timestamp: datetime(), msg_id: uuid4(), content: z.array(agentContentSchema) });

/** The receiver's acknowledgement of one chat message, sent back in the message's session. */
export const chatAcknowledgementSchema = z.object({
  timestamp: datetime(),
  acknowledged_msg_id: uuid4(),
  metadata: stringMap().nullish(),
});

/** The protocol's name and version as uagents publishes them (its digest covers the models only). */
export const CHAT_PROTOCOL_NAME = 'AgentChatProtocol';
export const CHAT_PROTOCOL_VERSION = '0.3.0';

export type AgentContent = z.infer<typeof agentContentSchema>;
export type ChatMessagePayload = z.infer<typeof chatMessageSchema>;
export type ChatAcknowledgementPayload = z.infer<typeof chatAcknowledgementSchema>;
