import { z } from 'zod';

/** The bench agent's messages, the same models the hosted copy declares (bench/hosting.ts ECHO_AGENT). */
export const PING = { name: 'Ping', schema: z.object({ text: z.string() }) };
export const PONG = { name: 'Pong', schema: z.object({ text: z.string() }) };
