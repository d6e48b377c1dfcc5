// Where the browser finds the fixtures: the test server's root is the project, so test/fixtures/
// (the synced copy of the conformance fixtures) is served as /test/fixtures/.
export function fixtureUrl(relative: string): string {
  return `/test/fixtures/${relative}`;
}

/** Fetches a fixture's bytes; fails loudly when it is missing. */
export async function fixtureBytes(relative: string): Promise<Uint8Array> {
  const response = await fetch(fixtureUrl(relative));
  if (!response.ok) throw new Error(`fixture ${relative}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Fetches and parses a fixture manifest. */
export async function fixtureManifest<T>(format: string): Promise<T> {
  const response = await fetch(fixtureUrl(`${format}/manifest.json`));
  if (!response.ok) throw new Error(`manifest of ${format}: HTTP ${response.status}`);
  return (await response.json()) as T;
}
