-- What ranking reads of each match (search/agent-text-sql.ts): a narrow copy of the ranking columns of
-- search_agent_facts. At 100,000 agents a common word has thousands of matches, each looked up by rowid for
-- its popularity, featured flag and address; rows a third the size of the facts rows made that lookup ~25 %
-- cheaper (docs/decisions.md). Used where the FTS index already filters (the default visibility, relevancy
-- order); filters and other sorts still read search_agent_facts. Kept in step with search_agent_facts by
-- triggers on it, so every write path that feeds the facts feeds this too.
CREATE TABLE search_agent_rank (
  agent_rowid INTEGER PRIMARY KEY,
  address TEXT NOT NULL,
  recent_interactions INTEGER NOT NULL,
  featured INTEGER NOT NULL
);

INSERT INTO search_agent_rank (agent_rowid, address, recent_interactions, featured)
  SELECT agent_rowid, address, recent_interactions, featured FROM search_agent_facts;

-- 0002's triggers on agents write the facts with INSERT OR REPLACE (after a DELETE on updates), never UPDATE.
CREATE TRIGGER search_rank_after_facts_insert AFTER INSERT ON search_agent_facts BEGIN
  INSERT OR REPLACE INTO search_agent_rank (agent_rowid, address, recent_interactions, featured)
  VALUES (NEW.agent_rowid, NEW.address, NEW.recent_interactions, NEW.featured);
END;

CREATE TRIGGER search_rank_after_facts_update AFTER UPDATE ON search_agent_facts BEGIN
  DELETE FROM search_agent_rank WHERE agent_rowid = OLD.agent_rowid;
  INSERT OR REPLACE INTO search_agent_rank (agent_rowid, address, recent_interactions, featured)
  VALUES (NEW.agent_rowid, NEW.address, NEW.recent_interactions, NEW.featured);
END;

CREATE TRIGGER search_rank_after_facts_delete AFTER DELETE ON search_agent_facts BEGIN
  DELETE FROM search_agent_rank WHERE agent_rowid = OLD.agent_rowid;
END;
