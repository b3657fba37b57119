-- Two per-agent ranking signals, multiplied into the SQL score (search/ranking.ts) so that ordering, `relevancy
-- asc` and `cutoff` stay exact:
--   text_quality: computed from the agent's own text when it is written (search/text-quality.ts): 1 for an honest
--     agent, down to 0.5 for keyword stuffing (repeated terms, lists of unrelated domains) and a little below 1 for
--     an agent with no substance beyond its name.
--   agent_rank: AgentRank, PageRank over the interactions between agents of different accounts, recomputed by the
--     cron (search/agent-rank.ts); 0 for an agent no other account's agent interacts with.
--   cross_account_interactions: the recent (30 days) interactions counted for the agent from other accounts' agents,
--     by the same cron: the evidence agentic chat trusts (workers/chat/src/agentic/trust.ts).
ALTER TABLE agents ADD COLUMN text_quality REAL NOT NULL DEFAULT 1;
ALTER TABLE agents ADD COLUMN agent_rank REAL NOT NULL DEFAULT 0;
ALTER TABLE agents ADD COLUMN cross_account_interactions INTEGER NOT NULL DEFAULT 0;

ALTER TABLE search_agent_facts ADD COLUMN text_quality REAL NOT NULL DEFAULT 1;
ALTER TABLE search_agent_facts ADD COLUMN agent_rank REAL NOT NULL DEFAULT 0;
ALTER TABLE search_agent_rank ADD COLUMN text_quality REAL NOT NULL DEFAULT 1;
ALTER TABLE search_agent_rank ADD COLUMN agent_rank REAL NOT NULL DEFAULT 0;

-- 0002's and 0007's triggers, carrying the two new columns.
DROP TRIGGER search_facts_after_insert;
DROP TRIGGER search_facts_after_update;
DROP TRIGGER search_rank_after_facts_insert;
DROP TRIGGER search_rank_after_facts_update;

CREATE TRIGGER search_facts_after_insert AFTER INSERT ON agents BEGIN
  INSERT OR REPLACE INTO search_agent_facts VALUES (
    NEW.rowid, NEW.address, coalesce(NEW.is_active, 0), coalesce(NEW.is_public, 0), NEW.last_probe_ok, NEW.category, NEW.agent_type,
    coalesce(NEW.featured, 0), length(trim(coalesce(NEW.readme, ''))) > 0, NEW.geo_location IS NOT NULL,
    coalesce(NEW.recent_interactions, 0), coalesce(NEW.total_interactions, 0), NEW.created_at, NEW.last_updated,
    NEW.text_quality, NEW.agent_rank
  );
END;
CREATE TRIGGER search_facts_after_update AFTER UPDATE ON agents BEGIN
  DELETE FROM search_agent_facts WHERE agent_rowid = OLD.rowid;
  INSERT OR REPLACE INTO search_agent_facts VALUES (
    NEW.rowid, NEW.address, coalesce(NEW.is_active, 0), coalesce(NEW.is_public, 0), NEW.last_probe_ok, NEW.category, NEW.agent_type,
    coalesce(NEW.featured, 0), length(trim(coalesce(NEW.readme, ''))) > 0, NEW.geo_location IS NOT NULL,
    coalesce(NEW.recent_interactions, 0), coalesce(NEW.total_interactions, 0), NEW.created_at, NEW.last_updated,
    NEW.text_quality, NEW.agent_rank
  );
END;

CREATE TRIGGER search_rank_after_facts_insert AFTER INSERT ON search_agent_facts BEGIN
  INSERT OR REPLACE INTO search_agent_rank (agent_rowid, address, recent_interactions, featured, last_probe_ok, text_quality, agent_rank)
  VALUES (NEW.agent_rowid, NEW.address, NEW.recent_interactions, NEW.featured, NEW.last_probe_ok, NEW.text_quality, NEW.agent_rank);
END;
CREATE TRIGGER search_rank_after_facts_update AFTER UPDATE ON search_agent_facts BEGIN
  DELETE FROM search_agent_rank WHERE agent_rowid = OLD.agent_rowid;
  INSERT OR REPLACE INTO search_agent_rank (agent_rowid, address, recent_interactions, featured, last_probe_ok, text_quality, agent_rank)
  VALUES (NEW.agent_rowid, NEW.address, NEW.recent_interactions, NEW.featured, NEW.last_probe_ok, NEW.text_quality, NEW.agent_rank);
END;

-- The cron resets agents that lost their rank or count: only those rows, not a scan of every agent.
CREATE INDEX agents_with_agent_rank ON agents (address) WHERE agent_rank != 0 OR cross_account_interactions != 0;
