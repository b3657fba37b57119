import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  buildEnvelope,
  parseEnvelope,
  REPLAY_WINDOW_SECONDS,
  serializeEnvelope,
  verifyEnvelope,
  type Verification,
} from '../../lib/envelope/index.ts';
import { durableReplayGuard, HANDLER_LEASE_SECONDS } from '../../lib/envelope/replay-ledger.ts';
import { Identity } from '../../lib/identity/index.ts';

/**
 * Replay protection through the real ReplayLedger Durable Object (the router's REPLAY_LEDGER binding):
 * envelopes go over the wire text, through verifyEnvelope with durableReplayGuard, as a webhook receives them.
 * Each test has its own receiver, hence its own ledger.
 */
const sender = Identity.fromSeed('replay ledger test sender', 0);
let receivers = 0;
const newReceiver = () => Identity.fromSeed(`replay ledger test receiver ${++receivers}`, 0);
const nowSeconds = () => Math.floor(Date.now() / 1000);

function envelopeText(receiver: Identity, options: { expires?: number | null; nonce?: bigint | null; text?: string } = {}): string {
  return serializeEnvelope(
    buildEnvelope({
      sender,
      target: receiver.address,
      schemaDigest: 'model:59e3c8304bb68c45e7d3381ee2f5636ac7d7c0c76525fca1554e28ea1017cf0c',
      payload: { request: options.text ?? 'What is the revenue?' },
      expires: options.expires === undefined ? nowSeconds() + 3600 : options.expires,
      nonce: options.nonce === undefined ? 1n : options.nonce,
    }),
  );
}

/** What a webhook does with a body: parse, then verify against the receiver's ledger (a fresh stub each time, as another isolate would have). */
async function receive(receiver: Identity, text: string, clock?: number): Promise<Verification> {
  const parsed = parseEnvelope(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return verifyEnvelope(parsed.envelope, {
    self: receiver.address,
    replay: durableReplayGuard(env.REPLAY_LEDGER, receiver.address),
    nowSeconds: clock,
  });
}

const ledgerOf = (receiver: Identity) => env.REPLAY_LEDGER.get(env.REPLAY_LEDGER.idFromName(receiver.address));

/** The ledger's rows, read inside the Durable Object. */
function rows(receiver: Identity): Promise<{ digest: string; until: number }[]> {
  return runInDurableObject(ledgerOf(receiver), (_, state) =>
    state.storage.sql.exec<{ digest: string; until: number }>('SELECT digest, until FROM seen ORDER BY until').toArray(),
  );
}

const alarmAt = (receiver: Identity) => runInDurableObject(ledgerOf(receiver), (_, state) => state.storage.getAlarm());

describe('ReplayLedger (Durable Object) with verifyEnvelope', () => {
  it('accepts an envelope once; the same envelope again is refused as replayed', async () => {
    const receiver = newReceiver();
    const text = envelopeText(receiver);
    expect(await receive(receiver, text)).toMatchObject({ ok: true });
    expect(await receive(receiver, text)).toEqual({ ok: false, reason: 'replayed', message: 'envelope was already received' });
    expect(await rows(receiver)).toHaveLength(1);
  });

  it('of ten copies delivered at the same moment exactly one is accepted', async () => {
    const receiver = newReceiver();
    const text = envelopeText(receiver);
    const results = await Promise.all(Array.from({ length: 10 }, () => receive(receiver, text)));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok && result.reason === 'replayed')).toHaveLength(9);
  });

  it('different envelopes (another nonce) are all accepted', async () => {
    const receiver = newReceiver();
    for (const nonce of [1n, 2n, 18446744073709551615n])
      expect(await receive(receiver, envelopeText(receiver, { nonce }))).toMatchObject({ ok: true });
    expect(await rows(receiver)).toHaveLength(3);
  });

  it('each receiver has its own ledger: a digest seen by one is new to another', async () => {
    const [first, second] = [newReceiver(), newReceiver()];
    const digest = 'ab'.repeat(32);
    const until = nowSeconds() + 60;
    expect(await durableReplayGuard(env.REPLAY_LEDGER, first.address).claim(digest, until)).toBe('claimed');
    expect(await durableReplayGuard(env.REPLAY_LEDGER, second.address).claim(digest, until)).toBe('claimed');
    expect(await durableReplayGuard(env.REPLAY_LEDGER, first.address).claim(digest, until)).toBe('replayed');
  });

  it('a forged copy is refused before the ledger is asked, so it cannot burn the genuine envelope', async () => {
    const receiver = newReceiver();
    const text = envelopeText(receiver);
    const forged = text.replace(/"signature":"[^"]+"/, `"signature":"${Identity.fromSeed('forger', 0).sign('x')}"`);
    expect(await receive(receiver, forged)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(await rows(receiver)).toHaveLength(0);
    expect(await receive(receiver, text)).toMatchObject({ ok: true });
  });

  it('an envelope with expires is remembered until then', async () => {
    const receiver = newReceiver();
    const expires = nowSeconds() + 600;
    const text = envelopeText(receiver, { expires });
    expect(await receive(receiver, text)).toMatchObject({ ok: true });
    expect(await rows(receiver)).toEqual([{ digest: expect.any(String), until: expires }]);
    expect(await runDurableObjectAlarm(ledgerOf(receiver))).toBe(true);
    expect(await rows(receiver)).toHaveLength(1);
    expect(await receive(receiver, text)).toMatchObject({ ok: false, reason: 'replayed' });
  });

  it(`an envelope without expires (as the Python SDK sends) is remembered for REPLAY_WINDOW_SECONDS (${REPLAY_WINDOW_SECONDS} s)`, async () => {
    const receiver = newReceiver();
    const text = envelopeText(receiver, { expires: null, nonce: null });
    const before = Date.now() / 1000;
    expect(await receive(receiver, text)).toMatchObject({ ok: true });
    const [row] = await rows(receiver);
    expect(row!.until).toBeGreaterThanOrEqual(before + REPLAY_WINDOW_SECONDS - 1);
    expect(row!.until).toBeLessThanOrEqual(Date.now() / 1000 + REPLAY_WINDOW_SECONDS + 1);
    expect(await runDurableObjectAlarm(ledgerOf(receiver))).toBe(true);
    expect(await receive(receiver, text)).toMatchObject({ ok: false, reason: 'replayed' });
  });

  it('once an envelope has expired the ledger forgets it (the expiry check refuses it from then on)', async () => {
    const receiver = newReceiver();
    const expires = nowSeconds() - 30;
    const text = envelopeText(receiver, { expires });
    // A receiver whose clock is behind takes it as valid; the ledger keeps it until `expires`, already past on its clock.
    const lateClock = expires - 60;
    expect(await receive(receiver, text, lateClock)).toMatchObject({ ok: true });
    expect(await rows(receiver)).toEqual([{ digest: expect.any(String), until: expires }]);
    // Past its expiry the digest no longer counts as seen, even before the sweep.
    expect(await receive(receiver, text, lateClock)).toMatchObject({ ok: true });
    expect(await runDurableObjectAlarm(ledgerOf(receiver))).toBe(true);
    expect(await rows(receiver)).toHaveLength(0);
    expect(await receive(receiver, text)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('the sweep alarm deletes expired digests only, and stays scheduled while digests remain', async () => {
    const receiver = newReceiver();
    const guard = durableReplayGuard(env.REPLAY_LEDGER, receiver.address);
    expect(await alarmAt(receiver)).toBeNull();
    await guard.claim('01'.repeat(32), nowSeconds() - 10);
    await guard.claim('02'.repeat(32), nowSeconds() + 600);
    const scheduled = await alarmAt(receiver);
    expect(scheduled).not.toBeNull();
    expect(scheduled! - Date.now()).toBeGreaterThan((REPLAY_WINDOW_SECONDS - 60) * 1000);

    expect(await runDurableObjectAlarm(ledgerOf(receiver))).toBe(true);
    expect((await rows(receiver)).map((row) => row.digest)).toEqual(['02'.repeat(32)]);
    expect(await alarmAt(receiver)).not.toBeNull();
    expect(await guard.claim('02'.repeat(32), nowSeconds() + 600)).toBe('replayed');
  });

  it('with nothing left to remember the alarm is not scheduled again', async () => {
    const receiver = newReceiver();
    const guard = durableReplayGuard(env.REPLAY_LEDGER, receiver.address);
    await guard.claim('03'.repeat(32), nowSeconds() - 1);
    expect(await runDurableObjectAlarm(ledgerOf(receiver))).toBe(true);
    expect(await rows(receiver)).toHaveLength(0);
    expect(await alarmAt(receiver)).toBeNull();
    expect(await runDurableObjectAlarm(ledgerOf(receiver))).toBe(false);
  });

  it('release forgets a digest, so a retried envelope whose handling failed is accepted', async () => {
    const receiver = newReceiver();
    const text = envelopeText(receiver);
    const first = await receive(receiver, text);
    if (!first.ok) throw new Error(first.message);
    await ledgerOf(receiver).release(first.digestHex);
    expect(await receive(receiver, text)).toMatchObject({ ok: true });
    expect(await receive(receiver, text)).toMatchObject({ ok: false, reason: 'replayed' });
  });

  describe('claims under a handler lease (webhooks)', () => {
    const digest = () => crypto.getRandomValues(new Uint8Array(32)).reduce((hex, byte) => hex + byte.toString(16).padStart(2, '0'), '');
    const until = () => nowSeconds() + 600;

    it('a copy that arrives while the first is being handled is told to come back; once settled it is a replay', async () => {
      const receiver = newReceiver();
      const guard = durableReplayGuard(env.REPLAY_LEDGER, receiver.address, HANDLER_LEASE_SECONDS);
      const d = digest();
      expect(await guard.claim(d, until())).toBe('claimed');
      expect(await guard.claim(d, until())).toBe('in_progress');
      await ledgerOf(receiver).settle(d);
      expect(await guard.claim(d, until())).toBe('replayed');
    });

    it('a claim whose handler failed is released and taken by the next copy', async () => {
      const receiver = newReceiver();
      const guard = durableReplayGuard(env.REPLAY_LEDGER, receiver.address, HANDLER_LEASE_SECONDS);
      const d = digest();
      expect(await guard.claim(d, until())).toBe('claimed');
      await ledgerOf(receiver).release(d);
      expect(await guard.claim(d, until())).toBe('claimed');
    });

    it('a claim whose handler died (neither settled nor released) passes to the next copy when its lease runs out', async () => {
      const receiver = newReceiver();
      const leaseSeconds = 0.2;
      const guard = durableReplayGuard(env.REPLAY_LEDGER, receiver.address, leaseSeconds);
      const d = digest();
      expect(await guard.claim(d, until())).toBe('claimed');
      expect(await guard.claim(d, until())).toBe('in_progress');
      await new Promise((resolve) => setTimeout(resolve, leaseSeconds * 1000 + 50));
      expect(await guard.claim(d, until())).toBe('claimed');
      expect(await guard.claim(d, until())).toBe('in_progress');
    });

    it('through verifyEnvelope a copy in progress is refused as in_progress, not as a replay', async () => {
      const receiver = newReceiver();
      const text = envelopeText(receiver);
      const parsed = parseEnvelope(text);
      if (!parsed.ok) throw new Error(parsed.message);
      const options = { self: receiver.address, replay: durableReplayGuard(env.REPLAY_LEDGER, receiver.address, HANDLER_LEASE_SECONDS) };
      expect(await verifyEnvelope(parsed.envelope, options)).toMatchObject({ ok: true });
      expect(await verifyEnvelope(parsed.envelope, options)).toMatchObject({ ok: false, reason: 'in_progress' });
    });

    it('the sweep forgets leases with their digests', async () => {
      const receiver = newReceiver();
      const guard = durableReplayGuard(env.REPLAY_LEDGER, receiver.address, HANDLER_LEASE_SECONDS);
      await guard.claim(digest(), nowSeconds() - 1);
      await guard.claim(digest(), until());
      expect(await runDurableObjectAlarm(ledgerOf(receiver))).toBe(true);
      const leases = await runInDurableObject(ledgerOf(receiver), (_, state) =>
        state.storage.sql.exec('SELECT digest FROM handling').toArray(),
      );
      expect(leases).toHaveLength(1);
    });
  });
});
