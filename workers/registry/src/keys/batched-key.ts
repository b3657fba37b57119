import { createMiddleware } from 'hono/factory';
import { bearerToken, hashSecret } from '../../../../lib/api-keys/key-token.ts';
import type { Permission } from '../../../../schemas/keys.ts';
import {
  type AuthenticatedKey,
  type AuthResult,
  authenticate,
  judgeKeyRow,
  KEY_ROW_SQL,
  type KeyRow,
  type ParsedKey,
  parseBearer,
  touchLastUsed,
} from './authenticate.ts';
import { keyRefusal } from './require-key.ts';

/**
 * A key checked inside a route's first D1 batch instead of in a round trip of its own (on the edge a round
 * trip to the database can cost more than the query). The route runs `statement` first in that batch and
 * hands its rows to `settle`; statements of the batch that would cost real work are made conditional on `gate`,
 * so a request with a made-up key gets no search run for it.
 */
export class BatchedKeyCheck {
  readonly statement: { sql: string; params: readonly unknown[] };
  verdict: { result: AuthResult; touch: boolean } | undefined;
  private readonly secretHash: string;

  constructor(
    private readonly parsed: ParsedKey,
    private readonly permission: Permission | readonly Permission[],
    private readonly now: Date,
  ) {
    this.statement = { sql: KEY_ROW_SQL, params: [parsed.id] };
    this.secretHash = hashSecret(parsed.secret);
  }

  /** SQL true only for a live key with this secret (permissions are judged from the row): `bind` numbers the values. */
  gate(bind: (value: unknown) => string): string {
    return `EXISTS (SELECT 1 FROM api_keys WHERE id = ${bind(this.parsed.id)} AND secret_hash = ${bind(this.secretHash)}
      AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${bind(this.now.toISOString())}))`;
  }

  /** Judges the rows `statement` returned; throws the refusal (an ApiError, the route's answer) of a key that may not call the route. */
  settle(rows: readonly unknown[]): AuthenticatedKey {
    this.verdict = judgeKeyRow(this.parsed, rows[0] as KeyRow | undefined, this.permission, this.now);
    const { result } = this.verdict;
    if (!result.ok) throw keyRefusal(result.status, result.message);
    const { ok: _ok, ...key } = result;
    return key;
  }
}

export type BatchedKeyEnv = { Bindings: { DB: D1Database }; Variables: { keyCheck: BatchedKeyCheck } };

/**
 * requireKey for a route that checks the key in its own first batch (`c.get('keyCheck')`). A request
 * answered before that batch ran (a 400 for its body) is checked on its own first, so a bad key still gets
 * its 401 before anything is said about the body, as with requireKey.
 */
export function requireKeyInBatch(permission: Permission | readonly Permission[]) {
  return createMiddleware<BatchedKeyEnv>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    const parsed = parseBearer(token);
    if ('ok' in parsed) throw keyRefusal(401, parsed.message);
    const check = new BatchedKeyCheck(parsed, permission, new Date());
    c.set('keyCheck', check);
    await next();
    if (check.verdict) {
      const { result, touch } = check.verdict;
      if (touch && result.ok)
        c.executionCtx.waitUntil(
          touchLastUsed(c.env.DB, result.keyId, new Date()).catch((error: unknown) => console.error('last_used_at refresh failed', error)),
        );
      return;
    }
    const result = await authenticate(c.env.DB, token, permission);
    if (!result.ok) throw keyRefusal(result.status, result.message);
  });
}
