import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { buildEnvelope, envelopeDigest, MemoryReplayGuard, parseEnvelope, schemaDigest, serializeEnvelope, verifyEnvelope } from '../lib/envelope/index.ts';
import { Identity } from '../lib/identity/index.ts';

/**
 * bench:envelope — what the envelope layer costs on top of the curve. In one run, over the same messages:
 *   envelope: build (payload JSON + base64, digest, sign, bech32) → serialise → parse → verify (addresses,
 *             signature, payload decode, in-memory replay guard), i.e. one message through the wire format;
 *   raw:      @noble/curves secp256k1 sign + verify of the same 32-byte digests.
 * Rounds alternate so that both see the same machine load; the best round of each is compared.
 * Target: the envelope layer within 15% of the raw curve operations (exit 1 otherwise).
 */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET_OVERHEAD_PERCENT = 15;

const sender = Identity.fromSeed('bench envelope sender', 0);
const receiver = Identity.fromSeed('bench envelope receiver', 0);
const senderPrivateKey = hexToBytes(sender.privateKeyHex);
const itemSchema = z.object({ role: z.string(), name: z.string().nullable(), content: z.string() }).meta({ title: 'AnalysisItem' });
const resultSchema = z.object({ analysis_result: z.object({ analysis: z.array(itemSchema) }).meta({ title: 'AnalysisResult' }) });
const digest = schemaDigest('AnalysisResultMessage', resultSchema);
const expires = Math.floor(Date.now() / 1000) + 3600;

const payloads = Array.from({ length: MESSAGES }, (_, seq) => ({
  analysis_result: {
    analysis: [
      { role: 'plan', name: 'Supervisor', content: `Ask the filings analyst (#${seq}).` },
      { role: 'filings', name: 'Filings Analyst', content: `Revenue FY2023: $${383 + seq}.3B, ünïcødé ✓` },
    ],
  },
}));

let round = 0;

/** One message through the envelope layer: signed, on the wire, parsed and verified by the receiver. */
async function envelopeRound(): Promise<number> {
  round += 1;
  // A fresh guard and fresh nonces per round: every envelope is new to the receiver.
  const guard = new MemoryReplayGuard();
  const started = performance.now();
  for (let seq = 0; seq < MESSAGES; seq++) {
    const text = serializeEnvelope(
      buildEnvelope({ sender, target: receiver.address, schemaDigest: digest, payload: payloads[seq], expires, nonce: BigInt(round * MESSAGES + seq) }),
    );
    const parsed = parseEnvelope(text);
    if (!parsed.ok) throw new Error(parsed.message);
    const verified = await verifyEnvelope(parsed.envelope, { self: receiver.address, replay: guard });
    if (!verified.ok) throw new Error(verified.message);
  }
  return performance.now() - started;
}

/** The same digests, signed and verified with the curve library alone. */
function rawRound(digests: Uint8Array[]): number {
  const started = performance.now();
  for (const messageDigest of digests) {
    const signature = secp256k1.sign(messageDigest, senderPrivateKey, { prehash: false });
    if (!secp256k1.verify(signature, messageDigest, sender.publicKey, { prehash: false, lowS: false })) throw new Error('raw verify failed');
  }
  return performance.now() - started;
}

const digests = payloads.map((payload, seq) =>
  envelopeDigest(buildEnvelope({ sender, target: receiver.address, schemaDigest: digest, payload, expires, nonce: BigInt(seq) })),
);

// Warm-up: JIT and noble's precomputed tables.
await envelopeRound();
rawRound(digests);

let bestEnvelope = Infinity;
let bestRaw = Infinity;
for (let i = 0; i < ROUNDS; i++) {
  bestEnvelope = Math.min(bestEnvelope, await envelopeRound());
  bestRaw = Math.min(bestRaw, rawRound(digests));
}

const opsPerSecond = (ms: number) => (MESSAGES / ms) * 1000;
const overhead = (bestEnvelope / bestRaw - 1) * 100;
const pass = overhead <= TARGET_OVERHEAD_PERCENT;

console.log(`bench:envelope — ${MESSAGES} messages × ${ROUNDS} rounds (best round), Node ${process.version}`);
console.log(`  raw secp256k1 sign+verify   ${opsPerSecond(bestRaw).toFixed(0).padStart(7)} ops/s  (${((bestRaw / MESSAGES) * 1000).toFixed(1)} µs/op)`);
console.log(`  envelope build→wire→verify  ${opsPerSecond(bestEnvelope).toFixed(0).padStart(7)} ops/s  (${((bestEnvelope / MESSAGES) * 1000).toFixed(1)} µs/op)`);
console.log(`  envelope overhead           ${overhead.toFixed(1)}% (target ≤ ${TARGET_OVERHEAD_PERCENT}%): ${pass ? 'PASS' : 'FAIL'}`);
if (!pass) process.exitCode = 1;
