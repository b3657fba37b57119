import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wranglerInventory } from './helpers/wrangler-inventory.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const { workers, declared } = wranglerInventory(ROOT);

/** The text of the `### <worker>` section: where each Worker's bindings, queues, Durable Objects and crons are listed. */
function sectionOf(worker: string): string {
  const start = doc.indexOf(`\n### ${worker}\n`);
  if (start < 0) return '';
  const next = doc.indexOf('\n## ', start + 1);
  const nextWorker = doc.indexOf('\n### ', start + 1);
  const ends = [next, nextWorker].filter((index) => index > 0);
  return doc.slice(start, ends.length ? Math.min(...ends) : undefined);
}

const diagram = [...doc.matchAll(/```mermaid\n([\s\S]*?)```/g)].map(([, body]) => body).join('\n');

describe('docs/architecture.md against the wrangler configs', () => {
  it('finds the configs it checks (a parse that finds nothing would pass everything)', () => {
    expect(workers.length).toBeGreaterThanOrEqual(6);
    expect(declared.filter((item) => item.kind === 'durable object').length).toBeGreaterThan(5);
  });

  it.each(workers)('has a section for %s and shows it in the diagram', (worker) => {
    expect(sectionOf(worker), `add a "### ${worker}" section`).not.toBe('');
    expect(diagram).toContain(worker);
  });

  it.each(declared.map((item) => [`${item.worker} ${item.kind} ${item.name}`, item] as const))('names %s', (_, item) => {
    const section = sectionOf(item.worker);
    expect(section, `"### ${item.worker}" must name its ${item.kind} ${item.name}`).toContain(
      item.kind === 'cron' ? `cron \`${item.name}\`` : `\`${item.name}\``,
    );
    if (item.kind === 'durable object' || item.kind === 'queue') expect(diagram).toContain(item.name);
  });
});
