/**
 * `npm run identity -- --seed <seed> [--index <n>] [--json]`: the agent address and public key that a seed
 * gives, exactly as uagents-core `Identity.from_seed(seed, index)` derives them, so the same seed names
 * the same agent in Python and here. The private key is never printed.
 */
import { parseArgs } from 'node:util';
import { Identity, MAX_IDENTITY_INDEX } from '../lib/identity/index.ts';

const USAGE = `usage: npm run identity -- --seed <seed> [--index <0-${MAX_IDENTITY_INDEX}>] [--json]`;

function fail(message: string): never {
  console.error(`identity: ${message}\n${USAGE}`);
  process.exit(2);
}

function parseIndex(text: string): number {
  if (!/^\d+$/.test(text)) fail(`--index must be a whole number from 0 to ${MAX_IDENTITY_INDEX}, got "${text}"`);
  const index = Number(text);
  if (index > MAX_IDENTITY_INDEX) fail(`--index must be from 0 to ${MAX_IDENTITY_INDEX}, got ${text}`);
  return index;
}

function parseOptions() {
  try {
    return parseArgs({
      options: {
        seed: { type: 'string' },
        index: { type: 'string', default: '0' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    return fail((error as Error).message);
  }
}

const values = parseOptions();

if (values.help) {
  console.log(`${USAGE}\n\nPrints the agent address (agent1…) and compressed public key of a seed and index (default 0).`);
  process.exit(0);
}
if (values.seed === undefined || values.seed === '') fail("--seed is required (the agent's seed phrase)");

const index = parseIndex(values.index);
const identity = Identity.fromSeed(values.seed, index);
if (values.json) {
  console.log(JSON.stringify({ address: identity.address, public_key: identity.publicKeyHex, index }));
} else {
  console.log(`address     ${identity.address}\npublic key  ${identity.publicKeyHex}\nindex       ${index}`);
}
