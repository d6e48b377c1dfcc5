/**
 * The text `GET /` answers: how to call the endpoint (kept next to the handler it describes).
 * @module
 */

/** Usage text of the edge endpoint. */
export const USAGE = `verify-export: verify an AI-agent export artifact (AgentXchain, Zaxy, agent-history NDJSON, codex-exec JSONL).

POST / with the artifact as the request body (JSON, NDJSON/JSONL, or gzip of either).
  curl --data-binary @export.json.gz http://HOST/
Query parameters (all optional):
  kind=auto|agentxchain|zaxy|agent-history|codex-exec   skip format detection
  expect_public_key=HEX   pin the Zaxy signer's key (or header X-Expect-Public-Key)
  name=FILE               label shown as report.input; a name ending in .gz must be gzip
  strict=1                report the kit's own extra checks (warnings) as errors
Headers: Content-Encoding: gzip (optional; gzip is also recognised by its magic bytes).
Answer: the JSON report. 200 pass, 422 verification failed, 400 unreadable or not a known
format, 413 a size limit (body, decompressed, document or line), 405 wrong method, 415 unsupported
content type or encoding, 500 internal error.
`;
