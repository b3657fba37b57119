-- The offline semantic source's index, written when an agent is written (docs/decisions/0138): a search reads
-- a bounded number of rows from it, never every agent that shares a word with the request.

-- Each agent's word-vector embedding, quantised to int8 (base64 text: D1 hands blobs over as arrays of numbers,
-- four times the bytes), in the bucket of its nearest fixed centroid (search/vectors/buckets.generated.ts).
-- Keyed so a bucket's rows are one range, most central first.
CREATE TABLE search_agent_vectors (
  bucket INTEGER NOT NULL,
  -- Cosine to the bucket's centroid: a full bucket is read most central first.
  centrality REAL NOT NULL,
  agent_rowid INTEGER NOT NULL,
  -- Multiplies the int8 components back to the unit vector's.
  scale REAL NOT NULL,
  code TEXT NOT NULL,
  PRIMARY KEY (bucket, centrality, agent_rowid)
) WITHOUT ROWID;
CREATE UNIQUE INDEX search_vectors_by_agent ON search_agent_vectors (agent_rowid);

-- How many agents each bucket holds: a search reads the nearest buckets until it has enough rows.
CREATE TABLE search_vector_buckets (
  bucket INTEGER PRIMARY KEY,
  agents INTEGER NOT NULL
);
INSERT INTO search_vector_buckets (bucket, agents)
  WITH RECURSIVE b(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM b WHERE n < 255) SELECT n, 0 FROM b;
CREATE TRIGGER search_vector_buckets_after_insert AFTER INSERT ON search_agent_vectors BEGIN
  UPDATE search_vector_buckets SET agents = agents + 1 WHERE bucket = NEW.bucket;
END;
CREATE TRIGGER search_vector_buckets_after_delete AFTER DELETE ON search_agent_vectors BEGIN
  UPDATE search_vector_buckets SET agents = agents - 1 WHERE bucket = OLD.bucket;
END;

-- Each agent's concept vector (search/concepts), unit length, one row per concept: a concept's agents are
-- read strongest first.
CREATE TABLE search_agent_concepts (
  concept INTEGER NOT NULL,
  weight REAL NOT NULL,
  agent_rowid INTEGER NOT NULL,
  PRIMARY KEY (concept, weight, agent_rowid)
) WITHOUT ROWID;
CREATE INDEX search_concepts_by_agent ON search_agent_concepts (agent_rowid, concept, weight);

-- Agents whose text changed since they were indexed. Every write path marks them (these triggers), the
-- registration path indexes its agent at once, the cron drains the rest (search/semantic-index.ts). `mark`
-- changes on every write (53 bits: exact as a JSON number), so indexing an older text never clears a newer one's mark.
-- An upsert, not INSERT OR REPLACE: inside a trigger fired by an upsert's DO UPDATE (re-registration), the outer
-- statement's ABORT overrides a trigger's OR REPLACE, and a second write of a pending agent failed (fuzz.test.ts).
CREATE TABLE search_semantic_pending (
  agent_rowid INTEGER PRIMARY KEY,
  mark INTEGER NOT NULL
);

CREATE TRIGGER search_semantic_after_insert AFTER INSERT ON agents BEGIN
  INSERT INTO search_semantic_pending (agent_rowid, mark) VALUES (NEW.rowid, random() & 9007199254740991)
    ON CONFLICT (agent_rowid) DO UPDATE SET mark = excluded.mark;
END;
CREATE TRIGGER search_semantic_after_update AFTER UPDATE OF name, tags, description, use_cases, functions, readme ON agents BEGIN
  DELETE FROM search_agent_vectors WHERE agent_rowid = OLD.rowid;
  DELETE FROM search_agent_concepts WHERE agent_rowid = OLD.rowid;
  INSERT INTO search_semantic_pending (agent_rowid, mark) VALUES (NEW.rowid, random() & 9007199254740991)
    ON CONFLICT (agent_rowid) DO UPDATE SET mark = excluded.mark;
END;
CREATE TRIGGER search_semantic_after_delete AFTER DELETE ON agents BEGIN
  DELETE FROM search_agent_vectors WHERE agent_rowid = OLD.rowid;
  DELETE FROM search_agent_concepts WHERE agent_rowid = OLD.rowid;
  DELETE FROM search_semantic_pending WHERE agent_rowid = OLD.rowid;
END;

-- Agents registered before this index: the cron indexes them.
INSERT INTO search_semantic_pending (agent_rowid, mark) SELECT rowid, random() & 9007199254740991 FROM agents;
