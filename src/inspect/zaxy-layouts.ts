/**
 * Typed layouts of Zaxy's documented event payloads: which payload field heads an event's card
 * and which fields follow, in what order, under which label. The field names are those Zaxy's
 * rule-based extractors read from each event type (Zaxy's extraction module,
 * `src/zaxy/extraction.py` in Zaxy's public repository: `decision.made` reads `decision`,
 * `summary`, `rationale`, `alternatives_considered`; `issue.diagnosed` reads `issue`,
 * `root_cause`, `evidence`, `fix`; and so on). A layout only orders and labels: every payload field
 * it does not name is still shown, as key and value, so a layout never hides data. An event type
 * without a layout is shown as key and value throughout (docs/zaxy.md, 'Entry schema': the payload
 * is any JSON).
 *
 * Relation names of edges are deliberately absent: an edge is drawn from its own
 * `relation_type`, whatever it is.
 * @module
 */

/** How one documented event type is laid out. */
export interface EventLayout {
  /** Payload keys tried in order for the card's headline; the first string one wins. */
  readonly headline: readonly string[];
  /** Payload keys shown next, each with its label. */
  readonly fields: readonly (readonly [key: string, label: string])[];
}

/** Layouts by event type (the entry's `kind` for the event grain). */
export const EVENT_LAYOUTS: ReadonlyMap<string, EventLayout> = /* @__PURE__ */ new Map<string, EventLayout>([
  [
    'decision.made',
    {
      headline: ['decision'],
      fields: [
        ['summary', 'Summary'],
        ['rationale', 'Rationale'],
        ['alternatives_considered', 'Alternatives considered'],
      ],
    },
  ],
  [
    'issue.diagnosed',
    {
      headline: ['issue'],
      fields: [
        ['root_cause', 'Root cause'],
        ['evidence', 'Evidence'],
        ['fix', 'Fix'],
      ],
    },
  ],
  [
    'verification.recorded',
    {
      headline: ['command'],
      fields: [
        ['outcome', 'Outcome'],
        ['summary', 'Summary'],
        ['evidence', 'Evidence'],
      ],
    },
  ],
  [
    'handoff.created',
    {
      headline: ['title'],
      fields: [
        ['summary', 'Summary'],
        ['next_steps', 'Next steps'],
        ['risks', 'Risks'],
      ],
    },
  ],
  ['goal.created', { headline: ['title'], fields: [['description', 'Description']] }],
  [
    'task.proposed',
    {
      headline: ['taskId'],
      fields: [
        ['title', 'Title'],
        ['summary', 'Summary'],
        ['goalTitle', 'Goal'],
      ],
    },
  ],
  ['task.claimed', { headline: ['taskId'], fields: [] }],
  ['task.completed', { headline: ['taskId', 'task'], fields: [['summary', 'Summary']] }],
  [
    'context.policy',
    {
      headline: ['source'],
      fields: [
        ['project', 'Project'],
        ['status', 'Status'],
        ['instructions', 'Instructions'],
      ],
    },
  ],
  [
    'user.preference_changed',
    {
      headline: ['key'],
      fields: [
        ['userId', 'User'],
        ['value', 'Value'],
      ],
    },
  ],
  [
    'document.indexed',
    {
      headline: ['path'],
      fields: [
        ['start_line', 'Start line'],
        ['end_line', 'End line'],
        ['sha256', 'SHA-256'],
        ['content', 'Content'],
      ],
    },
  ],
  [
    'code.file.indexed',
    {
      headline: ['path'],
      fields: [
        ['language', 'Language'],
        ['lines', 'Lines'],
        ['bytes', 'Bytes'],
        ['sha256', 'SHA-256'],
      ],
    },
  ],
]);
