/** The parts of one analysis whose time is told apart (bench:e2e shows each one's share). */
type Phase = 'queued' | 'team' | 'chat' | 'edgar' | 'reply';

/** Where one analysis's time went, as its batch's timing line lists it. */
export type PhaseTimes = { session: string } & Record<`${Phase}_ms`, number>;

/**
 * Where one analysis's time went, in ms. Phases that wait on I/O are timed (a Worker's clock stands still
 * while it computes); `team` is what the supervisor spent around its chat and EDGAR calls.
 */
export class PhaseClock {
  private readonly spent: Record<Phase, number> = { queued: 0, team: 0, chat: 0, edgar: 0, reply: 0 };

  add(phase: Phase, ms: number): void {
    this.spent[phase] += ms;
  }

  /** Runs `work`, adding its time to `phase`. */
  async time<T>(phase: Phase, work: () => Promise<T>): Promise<T> {
    const start = Date.now();
    try {
      return await work();
    } finally {
      this.add(phase, Date.now() - start);
    }
  }

  /** Runs the supervisor's `work`: its time less what went to chat and EDGAR inside it is the team's own. */
  async team<T>(work: () => Promise<T>): Promise<T> {
    const start = Date.now();
    const inside = this.spent.chat + this.spent.edgar;
    try {
      return await work();
    } finally {
      this.add('team', Date.now() - start - (this.spent.chat + this.spent.edgar - inside));
    }
  }

  times(session: string): PhaseTimes {
    const { queued, team, chat, edgar, reply } = this.spent;
    return { session, queued_ms: queued, team_ms: team, chat_ms: chat, edgar_ms: edgar, reply_ms: reply };
  }
}

/**
 * One log line per queue batch, not per analysis: `specialist timing [{"session":…,"queued_ms":…,…},…]`
 * (bench:e2e reads it). Under `wrangler dev` each console.log also crosses the inspector to wrangler's node
 * (docs/decisions/0023).
 */
export function logBatchTimes(times: PhaseTimes[]): void {
  if (times.length) console.log(`specialist timing ${JSON.stringify(times)}`);
}
