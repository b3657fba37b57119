import { Show } from 'solid-js';
import { AgentSteps } from './AgentSteps.tsx';
import { DiscoveredAgents } from './DiscoveredAgents.tsx';
import type { AssistantTurn } from './turns.ts';

/** An assistant reply: the model's thought apart (folded once the answer starts), then the answer. */
export function ReplyView(props: { turn: AssistantTurn }) {
  return (
    <div class="playground-reply" data-streaming={props.turn.streaming ? 'true' : 'false'}>
      <Show when={props.turn.agentic} fallback={<DiscoveredAgents agents={props.turn.agents} steps={props.turn.steps} />}>
        <AgentSteps steps={props.turn.steps} working={props.turn.streaming && !props.turn.content} />
      </Show>
      <Show when={props.turn.thought}>
        <details class="playground-thought" open={props.turn.streaming && !props.turn.content}>
          <summary>Thought</summary>
          <p>{props.turn.thought}</p>
        </details>
      </Show>
      <div class="playground-content">{props.turn.content}</div>
      <Show when={props.turn.streaming && !props.turn.agentic && !props.turn.content && !props.turn.thought}>
        <p class="ui-muted">Waiting for the model…</p>
      </Show>
      <Show when={props.turn.error}>
        <p class="ui-notice error">{props.turn.error}</p>
      </Show>
      <Show when={!props.turn.streaming && !props.turn.error}>
        <p class="ui-muted playground-meta">
          {props.turn.model} · finish: {props.turn.finishReason ?? '—'}
          <Show when={props.turn.usage}>
            {(usage) => ` · ${usage().prompt_tokens} prompt + ${usage().completion_tokens} completion tokens`}
          </Show>
        </p>
      </Show>
    </div>
  );
}
