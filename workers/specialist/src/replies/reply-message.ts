import { chatMessage, type Message } from '../../../../lib/agent/index.ts';
import type { AnalysisItem } from '../../../../schemas/messages.ts';
import { AnalysisResult } from '../agent.ts';
import type { ReplyForm } from '../jobs/analysis-job.ts';
import { analysisMarkdown } from './analysis-markdown.ts';

/** The analysis in the form its sender asked in. */
export function replyMessage(form: ReplyForm, items: AnalysisItem[]): Message {
  if (form === 'chat') return chatMessage(analysisMarkdown(items));
  return AnalysisResult({ analysis_result: { analysis: items } });
}
