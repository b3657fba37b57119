import { z } from 'zod';
import type { AnalysisItem } from '../../../../schemas/messages.ts';
import { EdgarError } from '../edgar/client.ts';
import { SUPERVISOR } from '../team/supervisor.ts';
import { logBatchTimes, PhaseClock, type PhaseTimes } from './phase-clock.ts';

/** Must match the analysis queue's name in wrangler.toml: the Worker's queue handler routes by it. */
export const ANALYSIS_QUEUE_NAME = 'rendezvous-specialist-analysis';

/** How the sender asked: `{request}` gets `{analysis_result}`, a chat message gets a chat message. */
const replyFormSchema = z.enum(['analysis_result', 'chat']);
export type ReplyForm = z.infer<typeof replyFormSchema>;

/** A question accepted at the webhook, waiting for its analysis. */
const analysisJobSchema = z.object({
  sender: z.string(),
  session: z.string(),
  request: z.string().min(1),
  received_at: z.string(),
  // Jobs queued before chat messages were taken have no `reply_as`: they asked with `{request}`.
  reply_as: replyFormSchema.default('analysis_result'),
});
type AnalysisJob = z.infer<typeof analysisJobSchema>;

/** Tries of one question while EDGAR fails transiently (429, 5xx, unreachable); then the sender is told. */
const ANALYSIS_ATTEMPTS = 3;

export async function enqueueAnalysis(queue: Queue, job: z.input<typeof analysisJobSchema>): Promise<void> {
  await queue.send(analysisJobSchema.parse(job), { contentType: 'json' });
}

interface AnalysisRunner {
  analyze(job: AnalysisJob, clock: PhaseClock): Promise<AnalysisItem[]>;
  reply(job: AnalysisJob, items: AnalysisItem[]): Promise<void>;
}

const failure = (reason: string): AnalysisItem[] => [
  { role: 'error', name: SUPERVISOR, content: `The analysis could not be completed: ${reason}. Please ask again later.` },
];

/**
 * Runs each queued question and sends its analysis to the sender. A transient EDGAR failure is retried
 * with backoff; after the last try, or on any other failure, the sender gets an error item instead of
 * waiting for an answer that will not come. Where each answered job's time went (PhaseClock) is logged
 * once for the batch.
 */
export async function consumeAnalysisBatch(batch: MessageBatch<unknown>, runner: AnalysisRunner): Promise<void> {
  const answered: PhaseTimes[] = [];
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = analysisJobSchema.safeParse(message.body);
      if (!parsed.success) {
        console.error(`specialist: queue message ${message.id} is not an analysis job; dropped`);
        message.ack();
        return;
      }
      const job = parsed.data;
      const clock = new PhaseClock();
      clock.add('queued', Math.max(0, Date.now() - Date.parse(job.received_at)));
      let items: AnalysisItem[];
      try {
        items = await clock.team(() => runner.analyze(job, clock));
      } catch (error) {
        const transient = error instanceof EdgarError && error.transient;
        if (transient && message.attempts < ANALYSIS_ATTEMPTS) {
          console.warn(
            `specialist: analysis of session ${job.session} failed (try ${message.attempts}), retrying: ${(error as Error).message}`,
          );
          message.retry({ delaySeconds: 2 ** message.attempts });
          return;
        }
        console.error(`specialist: analysis of session ${job.session} failed`, error);
        items = failure(error instanceof EdgarError ? error.message : 'internal error');
      }
      try {
        await clock.time('reply', () => runner.reply(job, items));
        message.ack();
        answered.push(clock.times(job.session));
      } catch (error) {
        console.error(`specialist: the analysis of session ${job.session} could not be queued for delivery`, error);
        message.retry({ delaySeconds: 2 ** message.attempts });
      }
    }),
  );
  logBatchTimes(answered);
}
