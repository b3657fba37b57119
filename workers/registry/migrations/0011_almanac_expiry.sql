-- When an agent's almanac registration lapses unless renewed (docs/decisions/0112): every registration
-- (POST /v2/agents) and every signed attestation (POST /v1/almanac/agents, …/batch) moves it forward.
-- Past it, the almanac record stays readable but resolves to no endpoint.
ALTER TABLE agents ADD COLUMN registration_expires_at TEXT;
UPDATE agents SET registration_expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', last_updated, '+2 days');
