import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { z } from 'zod';
import { pythonJsonDumps } from './python-json.ts';
import { modelSchema, schemaDigest } from './schema-digest.ts';

/** A message model as a protocol names it: the title (the pydantic class name) and its fields. */
interface ProtocolModel {
  title: string;
  schema: z.ZodObject;
}

/** One interaction of a protocol: a model and the models that may answer it (none: a message that ends the exchange). */
interface ProtocolInteraction {
  request: ProtocolModel;
  replies: ProtocolModel[];
}

const byKey =
  <T>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/**
 * The uAgents protocol digest (`ProtocolSpecification.digest`, uagents-core): `proto:` + sha256 of the
 * manifest's models (digest and pydantic schema, by digest) and interactions (by request digest), written as
 * `json.dumps(sort_keys=True)`. The manifest's metadata is emptied before hashing: name and version do not count.
 */
export function protocolDigest(interactions: ProtocolInteraction[]): string {
  const models = new Map<string, ProtocolModel>();
  const digestOf = (model: ProtocolModel) => {
    const digest = schemaDigest(model.title, model.schema);
    models.set(digest, model);
    return digest;
  };
  const rules = interactions.map(({ request, replies }) => ({
    type: 'normal',
    request: digestOf(request),
    responses: [...new Set(replies.map(digestOf))].sort(),
  }));
  const manifest = {
    version: '1.0',
    metadata: {},
    models: [...models].map(([digest, model]) => ({ digest, schema: modelSchema(model.title, model.schema) })).sort(byKey((m) => m.digest)),
    interactions: rules.sort(byKey((rule) => rule.request)),
  };
  return `proto:${bytesToHex(sha256(utf8ToBytes(pythonJsonDumps(manifest, { sortKeys: true, compact: false }))))}`;
}
