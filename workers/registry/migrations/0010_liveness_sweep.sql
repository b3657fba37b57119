-- The liveness sweep through Queues (workers/registry/src/liveness/sweep.ts, docs/decisions/0161).
-- The agents a probe can reach, in probe order: the cron reads the stalest of them from this partial index
-- without walking past the agents it never probes (inactive, account-less, without a webhook). Ties (never
-- probed) go by address, which is random: owners interleave.
CREATE INDEX agents_probe_due ON agents (last_probe_at, address)
  WHERE is_active = 1 AND account_id IS NOT NULL AND (url IS NOT NULL OR endpoints != '[]');

-- Agents handed to the queue and not probed yet: the next cron run does not hand them out again. A claim the
-- consumer never settled (a lost message) expires after CLAIM_MINUTES and the agent is due again. A table of
-- its own: writing a claim into agents would fire the search triggers for every claimed agent.
CREATE TABLE liveness_claims (
  address TEXT PRIMARY KEY,
  claimed_at TEXT NOT NULL
);
CREATE INDEX liveness_claims_by_time ON liveness_claims (claimed_at);

-- The cron ages interaction counts by the interactions that expire (interactions/store.ts, sweep): found by time.
CREATE INDEX interactions_by_time ON interactions (at);
