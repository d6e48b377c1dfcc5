/**
 * The name agent-history gives a session's markdown file (docs/agent-history-markdown.md, 'File
 * name and bytes'): `<YYYYmmddHHMMSS>_<stem>.md`, the stamp being the first message's time as
 * written (its own offset's wall clock), the stem the source file's name without its last
 * extension; `<stem>.md` when there is no first time or it does not parse. It is the NDJSON
 * export's own name with `.md` for `.ndjson`.
 * @module
 */
import type { JsonValue } from '../../../json/value.ts';

/**
 * The ISO 8601 forms Python 3.11's `datetime.fromisoformat` reads that a recorded session can hold:
 * a date (`2025-11-20` or `20251120`), then after any one character a time (`09`, `09:35`,
 * `09:35:38`, with a fraction after `.` or `,`, or the same without colons) and an offset. Week
 * dates, which Python also reads, are not recognised (no agent writes them).
 */
const ISO_DATE_TIME =
  /^(\d{4})(-?)(\d{2})\2(\d{2})(?:[^](\d{2})(?:(:?)(\d{2})(?:\6(\d{2})(?:[.,]\d+)?)?)?(?:[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:\.\d+)?)?)?)?)?$/u;

/**
 * The tool's file name for a session's markdown.
 * @example
 * markdownFileName('agent-d75d6769.jsonl', '2025-11-20T09:06:28.000Z'); // '20251120090628_agent-d75d6769.md'
 * markdownFileName('session.json', ''); // 'session.md'
 */
export function markdownFileName(sessionFile: string, firstTimestamp: JsonValue | undefined): string {
  const stamp =
    typeof firstTimestamp === 'string' ? wallClockStamp(firstTimestamp.replaceAll('Z', '+00:00')) : undefined;
  return `${stamp === undefined ? '' : `${stamp}_`}${stem(sessionFile)}.md`;
}

/** `YYYYmmddHHMMSS` of an ISO 8601 date-time, or undefined when Python would refuse it. */
function wallClockStamp(text: string): string | undefined {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, year, , month, day, hour = '00', , minute = '00', second = '00'] = match;
  const y = Number(year);
  const m = Number(month);
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  if (y < 1 || daysInMonth === undefined || Number(day) < 1 || Number(day) > daysInMonth) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  return `${year}${month}${day}${hour}${minute}${second}`;
}

/** Python's `PurePath(name).stem`: the last path part without its last suffix (`.bashrc` keeps its dot). */
function stem(name: string): string {
  const base =
    name
      .split('/')
      .filter((part) => part !== '' && part !== '.')
      .at(-1) ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 && dot < base.length - 1 ? base.slice(0, dot) : base;
}
