import type { z } from 'zod';
import { agentFunctionSchema } from '../../../../schemas/search.ts';
import {
  type AgentFunction,
  type DomainTag,
  domainTagSchema,
  endpointRecordSchema,
  type ProfileRecord,
} from '../../../../schemas/registry.ts';
import { type AgentStatus, agentStatusSchema } from '../../../../schemas/search.ts';
import type { AgentRow } from './row.ts';

/**
 * One parser per JSON column of the agents table, used by every reader (records, writes, search, liveness).
 * The registry writes these columns from validated input; a value of another shape (a hand-edited row) reads
 * as its column's empty value, item by item for lists, rather than failing the request.
 */

/** A JSON column's value, or undefined when it holds no JSON. */
export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isStatus = (value: string): value is AgentStatus => (agentStatusSchema.options as readonly string[]).includes(value);

/** A list column: the items of the stored array that pass `accepts` (a string check is cheap: search maps every page). */
function listOf<T>(accepts: (item: unknown) => item is T): (text: string | null) => T[] {
  return (text) => {
    const value = parseJson(text);
    return Array.isArray(value) ? value.filter(accepts) : [];
  };
}

const fits =
  <T>(schema: z.ZodType<T>) =>
  (item: unknown): item is T =>
    schema.safeParse(item).success;

function objectColumn(text: string | null): Record<string, unknown> | null {
  const value = parseJson(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

const stringList = listOf(isString);

function profileColumn(text: string | null): ProfileRecord {
  const stored = objectColumn(text) ?? {};
  const textOrNull = (value: unknown) => (isString(value) ? value : null);
  return {
    description: isString(stored.description) ? stored.description : '',
    avatar_url: textOrNull(stored.avatar_url),
    banner_url: textOrNull(stored.banner_url),
    starter_prompts: Array.isArray(stored.starter_prompts) ? stored.starter_prompts.filter(isString) : [],
  };
}

export const agentColumns = {
  endpoints: listOf(fits(endpointRecordSchema)),
  tags: stringList,
  use_cases: stringList,
  protocols: stringList,
  domain_tags: listOf<DomainTag>(fits(domainTagSchema)),
  functions: listOf<AgentFunction>(fits(agentFunctionSchema)),
  profile: profileColumn,
  metadata: objectColumn,
  geo_location: objectColumn,
  /** Not JSON, but text the Worker writes (deriveStatus); anything else reads as offline, as search always did. */
  status: (value: string): AgentStatus => (isStatus(value) ? value : 'offline'),
} satisfies { [column in keyof AgentRow]?: (text: never) => unknown };
