-- Agents no account registered (known only from a signed almanac attestation) are no longer listed in search:
-- anyone can make such an identity. They stay resolvable in the almanac; an account's registration lists them.
UPDATE agents SET is_public = 0 WHERE account_id IS NULL;
