/**
 * valibot schemas of codex-orchestrator `exec --jsonl` events as the tool writes them
 * (docs/codex-exec.md, 'Envelope' and 'Events'). Unknown extra fields are
 * tolerated (`looseObject`). Cross-event rules live in `checks.ts`.
 * @module
 */
import * as v from 'valibot';
import { isIsoTimestamp, quote } from '../ndjson/reader.ts';

export const SANDBOX_STATES = ['sandboxed', 'escalated', 'failed'] as const;
export const STREAMS = ['stdout', 'stderr'] as const;
export const STATUSES = ['succeeded', 'failed'] as const;

const string = (): v.StringSchema<string> => v.string('must be a string');
const nullableString = () => v.nullable(v.string('must be a string or null'));
const integer = () => v.pipe(v.number('must be an integer'), v.integer('must be an integer'));
const count = () =>
  v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(0, 'must not be negative'));
const duration = () => v.pipe(v.number('must be a number'), v.minValue(0, 'must not be negative'));
const attempt = () =>
  v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be >= 1'));
const oneOf = <const T extends readonly string[]>(options: T) =>
  v.picklist(options, (issue) => `${quote(issue.input)} not in {${options.join(', ')}}`);
const object = <T extends v.ObjectEntries>(entries: T) => v.looseObject(entries, 'must be an object');
const strings = () => v.array(string(), 'must be an array of strings');

/** Every line: `{type, timestamp, payload}`. */
export const envelope = object({
  type: string(),
  timestamp: v.pipe(string(), v.check(isIsoTimestamp, 'not ISO-8601')),
  payload: object({}),
});

export const PAYLOADS = {
  'exec:begin': object({
    attempt: attempt(),
    correlationId: string(),
    command: string(),
    args: strings(),
    cwd: nullableString(),
    sessionId: string(),
    sandboxState: oneOf(SANDBOX_STATES),
    persisted: v.boolean('must be a boolean'),
  }),
  'exec:chunk': object({
    attempt: attempt(),
    correlationId: string(),
    stream: oneOf(STREAMS),
    sequence: integer(),
    bytes: count(),
    data: string(),
  }),
  'exec:retry': object({
    attempt: attempt(),
    correlationId: string(),
    delayMs: duration(),
    sandboxState: oneOf(SANDBOX_STATES),
    errorMessage: string(),
  }),
  'exec:end': object({
    attempt: attempt(),
    correlationId: string(),
    exitCode: v.nullable(integer()),
    signal: nullableString(),
    durationMs: duration(),
    stdout: string(),
    stderr: string(),
    sandboxState: oneOf(SANDBOX_STATES),
    sessionId: string(),
    status: oneOf(STATUSES),
  }),
  'run:summary': object({
    status: string(),
    run: object({
      id: string(),
      taskId: string(),
      pipelineId: string(),
      manifest: string(),
      artifactRoot: string(),
      summary: nullableString(),
    }),
    result: object({
      exitCode: v.nullable(integer()),
      signal: nullableString(),
      durationMs: duration(),
      status: oneOf(STATUSES),
      sandboxState: oneOf(SANDBOX_STATES),
      correlationId: string(),
      attempts: attempt(),
    }),
    command: object({
      argv: strings(),
      shell: string(),
      cwd: nullableString(),
      sessionId: string(),
      persisted: v.boolean('must be a boolean'),
    }),
    outputs: object({ stdout: string(), stderr: string() }),
    logs: object({ runner: string(), command: nullableString() }),
    toolRun: v.nullable(object({})),
    metrics: v.optional(object({})),
    memory: v.optional(object({})),
    notifications: v.optional(object({})),
  }),
} as const;

export type EventType = keyof typeof PAYLOADS;
