import type { ProviderEvent } from './types.ts';

const OPEN = '<think>';
const CLOSE = '</think>';

/** Length of the longest suffix of `text` that could start `tag` (held back until the next piece decides). */
function partialTagSuffix(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(-length))) return length;
  }
  return 0;
}

/**
 * Splits model text into thought and content at `<think>`/`</think>` as it streams. Only the few characters
 * that might begin a tag are held back, so tokens still flow as they arrive. A model whose template opens
 * the thought itself starts in thought (`open`). A `</think>` without an opening tag in `tags` mode is reported
 * as `thought_closed_unopened`, so a caller that still holds the text (non-streaming) can file it as thought.
 */
export class ThinkSplitter {
  private inThought: boolean;
  private held = '';
  private trimLeading = false;

  constructor(mode: 'tags' | 'open') {
    this.inThought = mode === 'open';
  }

  push(text: string): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    let rest = this.held + text;
    this.held = '';
    while (rest) {
      const closeAt = rest.indexOf(CLOSE);
      const openAt = this.inThought ? -1 : rest.indexOf(OPEN);
      if (openAt >= 0 && (closeAt < 0 || openAt < closeAt)) {
        this.emit(events, rest.slice(0, openAt));
        this.inThought = true;
        rest = rest.slice(openAt + OPEN.length);
        continue;
      }
      if (closeAt >= 0) {
        this.emit(events, rest.slice(0, closeAt));
        if (!this.inThought) events.push({ type: 'thought_closed_unopened' });
        this.inThought = false;
        this.trimLeading = true;
        rest = rest.slice(closeAt + CLOSE.length);
        continue;
      }
      const hold = Math.max(partialTagSuffix(rest, CLOSE), this.inThought ? 0 : partialTagSuffix(rest, OPEN));
      this.emit(events, rest.slice(0, rest.length - hold));
      this.held = rest.slice(rest.length - hold);
      break;
    }
    return events;
  }

  flush(): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    this.emit(events, this.held);
    this.held = '';
    return events;
  }

  private emit(events: ProviderEvent[], text: string) {
    if (this.trimLeading && !this.inThought) {
      text = text.replace(/^\s+/, '');
      if (text) this.trimLeading = false;
    }
    if (text) events.push({ type: this.inThought ? 'thought' : 'content', text });
  }
}
