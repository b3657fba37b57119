-- Open challenges are counted per account (at most MAX_OPEN_CHALLENGES unused and unexpired at once).
CREATE INDEX challenges_by_account ON challenges (account_id, expires_at);
