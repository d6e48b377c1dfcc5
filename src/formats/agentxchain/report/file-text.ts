/**
 * The text of a file of the export, as the reference's ship-status and recovery-report readers
 * take it: a string entry itself, else a string `data`, else `content_base64` decoded with Node's
 * lenient base64 rules and UTF-8 with U+FFFD replacement.
 * @module
 */
import { decodeUtf8Lenient } from '../../../encoding/utf8.ts';
import { decodeContentBase64 } from '../base64-fast-path.ts';
import { prop, type ParsedValue } from './values.ts';

/** The entry's text, or `null`. */
export function fileText(artifact: ParsedValue, relPath: string): string | null {
  const entry = prop(prop(artifact, 'files'), relPath);
  if (!entry) return null;
  if (typeof entry === 'string') return entry;
  const data = prop(entry, 'data');
  if (typeof data === 'string') return data;
  const base64 = prop(entry, 'content_base64');
  return typeof base64 === 'string' ? decodeUtf8Lenient(decodeContentBase64(base64)) : null;
}
