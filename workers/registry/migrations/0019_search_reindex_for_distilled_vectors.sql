-- The word table (lib/word-vectors) and the index's bucket centroids were regenerated from GloVe joined with a
-- sentence encoder distilled into words (docs/decisions/0216): every stored agent vector was computed from the old
-- table, so every agent is marked pending and embedded again by the cron, as 0015 did.
INSERT OR REPLACE INTO search_semantic_pending (agent_rowid, mark) SELECT rowid, random() & 9007199254740991 FROM agents;
