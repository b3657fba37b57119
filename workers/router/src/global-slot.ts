import { DurableObject } from 'cloudflare:workers';
import type { AnalysisResultMessage } from '../../../schemas/messages.ts';

const KEY = 'payload';

/**
 * The spec's single pending-response slot, kept for clients that poll without a request id: every filed
 * answer overwrites it, and a read returns it and empties it. Shared by all callers, as the spec says.
 */
export class GlobalSlot extends DurableObject<RouterEnv> {
  async put(payload: AnalysisResultMessage): Promise<void> {
    await this.ctx.storage.put(KEY, payload);
  }

  /** The stored payload, removed in the same step, or null when empty. */
  async take(): Promise<AnalysisResultMessage | null> {
    const payload = await this.ctx.storage.get<AnalysisResultMessage>(KEY);
    if (payload === undefined) return null;
    await this.ctx.storage.delete(KEY);
    return payload;
  }
}
