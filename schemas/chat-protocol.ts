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

const textContentSchema = z.object({ type: z.literal('text'), text: z.string() }).meta({ title: 'TextContent' });

const resourceSchema = z.object({ uri: z.string(), metadata: stringMap() }).meta({ title: 'Resource' });

const resourceContentSchema = z
  .object({
    type: z.literal('resource'),
    resource_id: uuid4(),
    // The first resource of a list is the primary one; the others accompany it (thumbnails, audio tracks).
    resource: z.union([resourceSchema, z.array(resourceSchema)]),
  })
  .meta({ title: 'ResourceContent' });

const metadataContentSchema = z.object({ type: z.literal('metadata'), metadata: stringMap() }).meta({ title: 'MetadataContent' });

const startSessionContentSchema = z.object({ type: z.literal('start-session') }).meta({ title: 'StartSessionContent' });

const endSessionContentSchema = z.object({ type: z.literal('end-session') }).meta({ title: 'EndSessionContent' });

const startStreamContentSchema = z.object({ type: z.literal('start-stream'), stream_id: uuid4() }).meta({ title: 'StartStreamContent' });

const endStreamContentSchema = z.object({ type: z.literal('end-stream'), stream_id: uuid4() }).meta({ title: 'EndStreamContent' });

/** One item of a chat message, told apart by `type` (the order is uagents' `AgentContent` union, part of the digest). */
const agentContentSchema = z.discriminatedUnion('type', [
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

export type AgentContent = z.infer<typeof agentContentSchema>;
export type ChatMessagePayload = z.infer<typeof chatMessageSchema>;
export type ChatAcknowledgementPayload = z.infer<typeof chatAcknowledgementSchema>;
