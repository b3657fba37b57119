import type { AnalysisItem } from '../../../../schemas/messages.ts';

/**
 * The analysis as one chat text: the supervisor's answer first (what a chat reader or an agent relaying
 * it wants), then each team worker's part as a Markdown section under its name.
 */
export function analysisMarkdown(items: AnalysisItem[]): string {
  const answers = items.filter((item) => item.role === 'answer' || item.role === 'error');
  const parts = items.filter((item) => !answers.includes(item));
  const sections = parts.map((item) => `## ${item.name ?? item.role} (${item.role})\n\n${item.content}`);
  return [...answers.map((item) => item.content), ...sections].join('\n\n');
}
