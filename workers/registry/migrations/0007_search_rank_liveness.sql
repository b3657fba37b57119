-- Search ranks agents the registry's own liveness probe found unreachable (last probe failed) below those
-- that answer, for every caller (search/ranking.ts, UNREACHABLE_FACTOR). The verdict is read where ranking
-- reads the rest of an agent's facts: search_agent_facts already holds last_probe_ok; the narrow
-- search_agent_rank of 0005 gets it too, kept in step by the same triggers on the facts.
ALTER TABLE search_agent_rank ADD COLUMN last_probe_ok INTEGER;

UPDATE search_agent_rank
  SET last_probe_ok = (SELECT f.last_probe_ok FROM search_agent_facts f WHERE f.agent_rowid = search_agent_rank.agent_rowid);

DROP TRIGGER search_rank_after_facts_insert;
DROP TRIGGER search_rank_after_facts_update;

CREATE TRIGGER search_rank_after_facts_insert AFTER INSERT ON search_agent_facts BEGIN
  INSERT OR REPLACE INTO search_agent_rank (agent_rowid, address, recent_interactions, featured, last_probe_ok)
  VALUES (NEW.agent_rowid, NEW.address, NEW.recent_interactions, NEW.featured, NEW.last_probe_ok);
END;

CREATE TRIGGER search_rank_after_facts_update AFTER UPDATE ON search_agent_facts BEGIN
  DELETE FROM search_agent_rank WHERE agent_rowid = OLD.agent_rowid;
  INSERT OR REPLACE INTO search_agent_rank (agent_rowid, address, recent_interactions, featured, last_probe_ok)
  VALUES (NEW.agent_rowid, NEW.address, NEW.recent_interactions, NEW.featured, NEW.last_probe_ok);
END;
