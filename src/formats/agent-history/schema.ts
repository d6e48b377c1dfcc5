/**
 * valibot schemas of agent-history NDJSON records, one per record type and shape
 * (docs/agent-history.md §2 impl-2.0 and §3 design-1.0). Unknown extra fields are tolerated
 * everywhere (`looseObject`, policy in §4). Checks that span several values (index contiguity,
 * uuid links, graph, counts) live in `design.ts` / `impl.ts`, not here.
 * @module
 */
import * as v from 'valibot';
import { isIsoTimestamp, quote } from '../ndjson/reader.ts';

const string = (): v.StringSchema<string> => v.string('must be a string');
const integer = () => v.pipe(v.number('must be an integer'), v.integer('must be an integer'));
const count = () =>
  v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(0, 'must not be negative'));
const boolean = (): v.BooleanSchema<string> => v.boolean('must be a boolean');
const iso = () => v.pipe(v.string('must be a string'), v.check(isIsoTimestamp, 'not ISO-8601'));
const oneOf = <const T extends readonly string[]>(options: T) =>
  v.picklist(options, (issue) => `${quote(issue.input)} not in {${options.join(', ')}}`);
const object = <T extends v.ObjectEntries>(entries: T) => v.looseObject(entries, 'must be an object');
const array = <T extends v.GenericSchema>(item: T) => v.array(item, 'must be an array');

// ---------------------------------------------------------------- design-1.0 (§3)

/** `session.agent` and `header.agent_types` of the design document. */
export const DESIGN_AGENTS = ['claude-code', 'codex', 'gemini'] as const;
export const ROLES = ['user', 'assistant', 'system'] as const;
export const SOURCE_TYPES = ['local', 'wsl', 'windows', 'remote'] as const;

export const designHeader = object({
  type: v.literal('header'),
  schema_version: string(),
  export_timestamp: iso(),
  agent_types: array(oneOf(DESIGN_AGENTS)),
  homes: array(string()),
  workspaces: array(string()),
  session_count: count(),
});

const designSession = object({
  id: string(),
  agent: oneOf(DESIGN_AGENTS),
  workspace: string(),
  workspace_encoded: string(),
  started_at: iso(),
  ended_at: iso(),
  source: object({
    type: oneOf(SOURCE_TYPES),
    host: v.optional(v.nullable(string())),
    path: string(),
  }),
  is_agent_session: boolean(),
  parent_session_id: v.optional(v.nullable(string())),
  agent_id: v.optional(string()),
});

/** The block types of §3; each one's own fields are checked by `CONTENT_BLOCKS`. */
const contentBlock = object({ type: string() });

const designMessage = object({
  index: integer(),
  uuid: v.optional(v.nullable(string())),
  parent_uuid: v.optional(v.nullable(string())),
  role: oneOf(ROLES),
  timestamp: v.optional(v.nullable(iso())),
  content: array(contentBlock),
  metadata: v.optional(object({})),
});

const graphNode = object({ uuid: string(), index: integer() });

export const designGraph = object({
  is_linear: boolean(),
  fork_points: array(object({ uuid: string(), index: integer(), branches: array(graphNode) })),
  active_path: array(string()),
});

export const designSessionRecord = object({
  type: v.literal('session'),
  session: designSession,
  messages: array(designMessage),
  graph: v.optional(designGraph),
});

/** Fields each known content block type must carry (§3 `message.content`). */
export const CONTENT_BLOCKS = {
  text: object({ type: v.literal('text'), text: string() }),
  thinking: object({ type: v.literal('thinking'), text: string() }),
  tool_use: object({ type: v.literal('tool_use'), tool_id: string(), tool_name: string(), input: v.unknown() }),
  tool_result: object({
    type: v.literal('tool_result'),
    tool_id: string(),
    tool_name: v.optional(string()),
    output: v.optional(v.unknown()),
    is_error: v.optional(boolean()),
  }),
  agent_spawn: object({
    type: v.literal('agent_spawn'),
    agent_session_id: string(),
    prompt: v.optional(string()),
    agent_type: v.optional(string()),
  }),
  agent_result: object({
    type: v.literal('agent_result'),
    agent_session_id: string(),
    summary: v.optional(string()),
    is_error: v.optional(boolean()),
  }),
} as const;

export type DesignHeader = v.InferOutput<typeof designHeader>;
export type DesignSessionRecord = v.InferOutput<typeof designSessionRecord>;
export type DesignMessage = v.InferOutput<typeof designMessage>;
export type DesignGraph = v.InferOutput<typeof designGraph>;

// ---------------------------------------------------------------- impl-2.0 (§2)

/** Short agent names the real exporter writes. */
export const IMPL_AGENTS = ['claude', 'codex', 'gemini', 'pi'] as const;

export const implHeader = object({
  type: v.literal('header'),
  schema_version: v.literal('2.0', 'must be "2.0"'),
  agent: oneOf(IMPL_AGENTS),
  session_file: string(),
  session_id: v.optional(string()),
  workspace: v.optional(string()),
});

/** `role` is only a string here: an unknown role is a warning in impl-2.0 (§4, R1). */
export const implMessage = object({
  type: v.literal('message'),
  timestamp: string(),
  role: string(),
  content: string(),
  model: v.optional(string()),
  tokens: v.optional(object({ input: count(), output: count(), cached: v.optional(count()) })),
  tool_calls: v.optional(array(object({ name: string() }))),
  session_id: v.optional(string()),
});

export const implSummary = object({
  type: v.literal('session'),
  agent: oneOf(IMPL_AGENTS),
  session_id: string(),
  message_count: count(),
  workspace: string(),
  forks: v.optional(
    object({
      fork_points: array(string()),
      branches: array(object({ fork_uuid: string(), branches: array(object({ uuid: string() })) })),
    }),
  ),
});
