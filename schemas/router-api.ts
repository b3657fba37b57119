import { z } from 'zod';
import { analysisResultMessageSchema, waitingSchema } from './messages.ts';
import { MAX_QUESTION_CHARS } from './question.ts';

/** A request id is the envelope session the router opened for the request. */
const requestIdSchema = z.uuid();

/**
 * POST /api/send-request body. Whitespace-only input counts as empty: there is nothing to ask. `request_id`
 * is the client's own id for the request (a fresh UUID per question); a request that carries one is answered
 * only in its own slot, never in the spec's global one.
 */
export const sendRequestBodySchema = z.object({
  input: z
    .string({ error: 'input is required and must be a string' })
    // Its own message: the string's `error` above would otherwise also name a question that is too long.
    .max(MAX_QUESTION_CHARS, `input must be at most ${MAX_QUESTION_CHARS.toLocaleString('en-US')} characters`)
    .refine((input) => input.trim().length > 0, 'input must not be empty'),
  request_id: z.uuid({ error: 'request_id must be a UUID, new for each question' }).optional(),
});

/** POST /api/send-request 200 answer. */
export const requestSentSchema = z.object({ status: z.literal('request_sent'), request_id: requestIdSchema });

/** The longest a poll may wait for its answer: below the idle timeouts of common proxies (and Cloudflare's 100 s). */
export const MAX_POLL_WAIT_SECONDS = 25;
const WAIT_RULE = `wait must be a whole number of seconds, 0 to ${MAX_POLL_WAIT_SECONDS}`;

/**
 * GET /api/get-response query; without `request_id` the spec's single global slot answers. `wait` (seconds)
 * makes the poll a long poll: it is answered as soon as the answer is filed, or `waiting` after that long.
 */
export const getResponseQuerySchema = z
  .object({
    request_id: requestIdSchema.optional(),
    wait: z.coerce.number({ error: WAIT_RULE }).int(WAIT_RULE).min(0, WAIT_RULE).max(MAX_POLL_WAIT_SECONDS, WAIT_RULE).optional(),
  })
  .refine((query) => query.wait === undefined || query.request_id !== undefined, {
    message: 'wait needs request_id: only a request’s own slot can be waited on',
    path: ['wait'],
  });

/** GET /api/get-response 200 answer: the specialist's analysis, or `{status:'waiting'}` while there is none. */
const getResponseSchema = z.union([waitingSchema, analysisResultMessageSchema]);

/** POST /webhook 200 answer. */
const webhookAcceptedSchema = z.object({ status: z.literal('success') });

export type RequestSent = z.infer<typeof requestSentSchema>;
export type GetResponseBody = z.infer<typeof getResponseSchema>;
export type WebhookAccepted = z.infer<typeof webhookAcceptedSchema>;

const isoTime = z.iso.datetime();

/** GET /api/requests/{request_id}: where a request stands (the client's progress line, the latency benchmark). */
export const requestStatusSchema = z.object({
  request_id: requestIdSchema,
  state: z.enum(['waiting', 'answered', 'failed']),
  /** The agent the request is with (the one that took it, or the last one tried). */
  specialist: z.string(),
  /** Agents offered the request before, in order, that did not take it, with a code saying why. */
  passed_over: z.array(z.object({ agent: z.string(), reason: z.string(), at: isoTime })),
  sent_at: isoTime,
  /** When the specialist's webhook accepted the request; null until then. */
  delivered_at: isoTime.nullable(),
  answered_at: isoTime.nullable(),
  expires_at: isoTime,
  /** Why the request reached no agent (state `failed`). */
  failure: z.string().nullable(),
});

export const requestIdParamSchema = z.object({ request_id: requestIdSchema });

export type RequestStatus = z.infer<typeof requestStatusSchema>;

/**
 * The router's error body: the spec's `{error: string}` (clients written for it show `error` as text), with
 * the platform's machine-readable `code` and `param` beside it.
 */
export const routerErrorSchema = z.object({ error: z.string(), code: z.string().nullable(), param: z.string().nullable() });
export type RouterError = z.infer<typeof routerErrorSchema>;
