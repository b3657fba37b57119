import { createResource, For, Show } from 'solid-js';
import type { AgentRecord } from '../../../schemas/search.ts';
import { getAgent, getMailboxStatus } from '../api/registry.ts';
import { DELIVERY_LABELS, deliveryOf } from './delivery.ts';
import { formatDate } from './format.ts';
import { Readme } from './Readme.tsx';

/**
 * One agent: the registry's full record (endpoints, declared functions, use cases) when the key may read
 * it, else the search record; and its README with its badges.
 */
export function AgentView(props: { agent: AgentRecord; token: string; onBack: () => void }) {
  const [detail] = createResource(
    () => ({ token: props.token, address: props.agent.address }),
    ({ token, address }) => getAgent(token, address),
  );
  const record = () => (detail.state === 'ready' ? detail() : props.agent);
  const full = () => (detail.state === 'ready' ? detail() : undefined);
  // The inbox of a mailbox agent, for its owner's key (any other key gets null: not its business).
  const [mailbox] = createResource(
    () => {
      const agent = full();
      return agent && deliveryOf(agent) === 'mailbox' ? { token: props.token, address: agent.address } : null;
    },
    ({ token, address }) => getMailboxStatus(token, address),
  );

  return (
    <article class="agent-view">
      <button type="button" class="ui-button secondary" onClick={() => props.onBack()}>
        ← Back to results
      </button>
      <header class="agent-view-head">
        <h2>{record().name}</h2>
        <span class="ui-status" data-status={record().status}>
          {record().status}
        </span>
        <Show when={record().handle}>
          <span class="ui-tag">@{record().handle}</span>
        </Show>
      </header>
      <p class="ui-mono agent-view-address">
        {record().address}{' '}
        <button type="button" class="ui-button secondary" onClick={() => void navigator.clipboard?.writeText(record().address)}>
          Copy address
        </button>
      </p>
      <Show when={detail.error}>
        <p class="ui-notice">Showing the search record: the full record could not be read ({(detail.error as Error).message}).</p>
      </Show>
      <dl class="agent-view-facts">
        <dt>Type</dt>
        <dd>{record().type}</dd>
        <dt>Category</dt>
        <dd>{record().category}</dd>
        <dt>Interactions</dt>
        <dd>
          {record().total_interactions} total, {record().recent_interactions} recent
        </dd>
        <dt>Rating</dt>
        <dd>{record().rating ?? '—'}</dd>
        <dt>Registered</dt>
        <dd>{formatDate(record().created_at)}</dd>
        <dt>Updated</dt>
        <dd>{formatDate(record().last_updated)}</dd>
        <Show when={full()}>
          {(agent) => (
            <>
              <dt>Receives messages</dt>
              <dd data-testid="delivery">{DELIVERY_LABELS[deliveryOf(agent())]}</dd>
              <Show when={mailbox.state === 'ready' && mailbox()}>
                {(inbox) => (
                  <>
                    <dt>Mailbox</dt>
                    <dd data-testid="mailbox-pending">
                      {inbox().pending} waiting
                      {inbox().oldest_received_at ? `, oldest ${formatDate(inbox().oldest_received_at!)}` : ''} (keeps{' '}
                      {inbox().limits.max_envelopes} for {inbox().limits.retention_seconds / 86_400} days)
                    </dd>
                  </>
                )}
              </Show>
              <dt>Webhook</dt>
              <dd class="ui-mono">{agent().url ?? '—'}</dd>
              <dt>Last probe</dt>
              <dd>
                {agent().last_probe_at
                  ? `${formatDate(agent().last_probe_at)} (${agent().last_probe_ok ? 'answered' : 'no answer'})`
                  : 'not probed yet'}
              </dd>
            </>
          )}
        </Show>
      </dl>
      <Show when={record().tags.length}>
        <div class="agent-card-tags">
          <For each={record().tags}>{(tag) => <span class="ui-tag">{tag}</span>}</For>
        </div>
      </Show>
      <Show when={full()?.use_cases.length}>
        <section>
          <h3>Use cases</h3>
          <ul>
            <For each={full()!.use_cases}>{(useCase) => <li>{useCase}</li>}</For>
          </ul>
        </section>
      </Show>
      <Show when={full()?.functions.length}>
        <section>
          <h3>What it accepts</h3>
          <For each={full()!.functions}>
            {(fn) => (
              <div class="agent-view-function">
                <p>
                  <strong>{fn.name}</strong> {fn.description}
                </p>
                <ul>
                  <For each={fn.parameters}>
                    {(parameter) => (
                      <li>
                        <code>{parameter.name}</code>
                        {parameter.required ? '' : ' (optional)'}: {parameter.description}
                      </li>
                    )}
                  </For>
                </ul>
              </div>
            )}
          </For>
        </section>
      </Show>
      <section class="ui-panel">
        <Show when={record().readme.trim()} fallback={<p class="ui-muted">This agent has no README.</p>}>
          <Readme text={record().readme} domainTags={full()?.domain_tags} structuredShown={full() !== undefined} />
        </Show>
      </section>
    </article>
  );
}
