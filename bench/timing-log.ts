import { existsSync, readFileSync } from 'node:fs';

/** The timing lines a Worker logs per batch of requests (`<prefix> [{json},…]`), by the id each record names, in log order. */
function timingLines(file: string, prefix: string, idField: string): Map<string, Record<string, number>[]> {
  const found = new Map<string, Record<string, number>[]>();
  if (!existsSync(file)) return found;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const at = line.indexOf(prefix);
    if (at < 0) continue;
    try {
      const records = JSON.parse(line.slice(at + prefix.length)) as Record<string, unknown>[];
      for (const record of records) {
        const id = record[idField];
        if (typeof id === 'string') found.set(id, [...(found.get(id) ?? []), record as Record<string, number>]);
      }
    } catch {
      // A line cut short by the log's buffering: that request's hops stay untimed.
    }
  }
  return found;
}

export interface Timings {
  queued: number;
  team: number;
  chat: number;
  edgar: number;
  reply: number;
}

const phasesOf = (s: Record<string, number> | undefined): Timings => {
  const ms = (value: number | undefined) => (typeof value === 'number' ? value : Number.NaN);
  return { queued: ms(s?.queued_ms), team: ms(s?.team_ms), chat: ms(s?.chat_ms), edgar: ms(s?.edgar_ms), reply: ms(s?.reply_ms) };
};

/** Per request id: the specialist's phases (workers/specialist/src/jobs/phase-clock.ts), from its log file; NaN where absent. */
export function readTimings(specialistLog: string): (requestId: string) => Timings {
  const specialist = timingLines(specialistLog, 'specialist timing ', 'session');
  return (requestId) => phasesOf(specialist.get(requestId)?.at(-1));
}

/** Per uAgents session: the specialist's phases of each question asked in it, in the order they were answered. */
export function readSessionTimings(specialistLog: string): (session: string) => Timings[] {
  const specialist = timingLines(specialistLog, 'specialist timing ', 'session');
  return (session) => (specialist.get(session) ?? []).map(phasesOf);
}
