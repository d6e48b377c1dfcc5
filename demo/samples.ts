/**
 * The demo's bundled samples (copies of shared fixtures, see `samples/SOURCES.md`). Imported as
 * URLs so Vite emits them as files and the element fetches them like any `src`.
 * @module
 */
/// <reference types="vite/client" />
import agentxchainPass from './samples/agentxchain-pass.json?url';
import agentxchainFail from './samples/agentxchain-fail.json?url';
import agentxchainCoordinator from './samples/agentxchain-coordinator-pass.json?url';
import zaxySignedPass from './samples/zaxy-signed-pass.json?url';
import zaxySignedFail from './samples/zaxy-signed-fail.json?url';
import zaxyMlDsaPass from './samples/zaxy-signed-ml-dsa-pass.json?url';
import zaxySubsetPass from './samples/zaxy-subset-pass.json?url';
import zaxySubsetFail from './samples/zaxy-subset-fail.json?url';
import agentHistoryPass from './samples/agent-history-pass.ndjson.gz?url';
import agentHistoryFail from './samples/agent-history-fail.ndjson?url';
import codexExecPass from './samples/codex-exec-pass.jsonl?url';
import codexExecFail from './samples/codex-exec-fail.jsonl?url';

/** The key the Ed25519 samples were signed with (pin it to see the trust verdict pass). */
export const SAMPLE_ED25519_KEY = '235274396125169ca046a1f1f076d39cb450fdb7d850f0da4539f54bdd2eaa0c';

export interface Sample {
  readonly url: string;
  readonly name: string;
  readonly format: string;
  readonly what: string;
  readonly expected: 'pass' | 'fail';
  /** A key to pin for this sample, when it is signed. */
  readonly pin?: string;
}

export const SAMPLES: readonly Sample[] = [
  {
    url: agentxchainPass,
    name: 'agentxchain-pass.json',
    format: 'AgentXchain',
    what: 'completed run export',
    expected: 'pass',
  },
  {
    url: agentxchainFail,
    name: 'agentxchain-fail.json',
    format: 'AgentXchain',
    what: 'one file hash changed',
    expected: 'fail',
  },
  {
    url: agentxchainCoordinator,
    name: 'agentxchain-coordinator-pass.json',
    format: 'AgentXchain',
    what: 'coordinator with nested repos',
    expected: 'pass',
  },
  {
    url: zaxySignedPass,
    name: 'zaxy-signed-pass.json',
    format: 'Zaxy',
    what: 'Ed25519 bundle, 8 entries',
    expected: 'pass',
    pin: SAMPLE_ED25519_KEY,
  },
  {
    url: zaxySignedFail,
    name: 'zaxy-signed-fail.json',
    format: 'Zaxy',
    what: 'entry content edited',
    expected: 'fail',
    pin: SAMPLE_ED25519_KEY,
  },
  {
    url: zaxyMlDsaPass,
    name: 'zaxy-signed-ml-dsa-pass.json',
    format: 'Zaxy',
    what: 'ML-DSA-65 bundle',
    expected: 'pass',
  },
  {
    url: zaxySubsetPass,
    name: 'zaxy-subset-pass.json',
    format: 'Zaxy',
    what: 'disclosed subset',
    expected: 'pass',
    pin: SAMPLE_ED25519_KEY,
  },
  {
    url: zaxySubsetFail,
    name: 'zaxy-subset-fail.json',
    format: 'Zaxy',
    what: 'proof sibling flipped',
    expected: 'fail',
    pin: SAMPLE_ED25519_KEY,
  },
  {
    url: agentHistoryPass,
    name: 'agent-history-pass.ndjson.gz',
    format: 'agent-history',
    what: 'gzipped multi-session export',
    expected: 'pass',
  },
  {
    url: agentHistoryFail,
    name: 'agent-history-fail.ndjson',
    format: 'agent-history',
    what: 'message count off by one',
    expected: 'fail',
  },
  {
    url: codexExecPass,
    name: 'codex-exec-pass.jsonl',
    format: 'codex-exec',
    what: 'interleaved stdout/stderr run',
    expected: 'pass',
  },
  {
    url: codexExecFail,
    name: 'codex-exec-fail.jsonl',
    format: 'codex-exec',
    what: 'chunk sequence gap',
    expected: 'fail',
  },
];
