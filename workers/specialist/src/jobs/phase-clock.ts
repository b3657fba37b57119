/** The parts of one analysis whose time is told apart (bench:e2e shows each one's share). */
type Phase = 'queued' | 'team' | 'chat' | 'edgar' | 'reply';

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

  /** One log line per analysis: `specialist timing {"session":…,"queued_ms":…,…}` (bench:e2e reads it). */
  log(session: string): void {
    const ms = Object.fromEntries(Object.entries(this.spent).map(([phase, value]) => [`${phase}_ms`, value]));
    console.log(`specialist timing ${JSON.stringify({ session, ...ms })}`);
  }
}
