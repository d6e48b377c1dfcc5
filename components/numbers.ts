/**
 * Counts as the report and the views print them: thousands grouped with commas as in English (`1,234,567`),
 * without `Intl`. The first `Intl.NumberFormat` (or `toLocaleString('en')`) of a page loads the
 * locale's number data, about 20 ms of the main thread in Chromium: in a view's first drawing
 * that alone is half the 50 ms a task may take.
 * @module
 */

/**
 * `n` with its thousands grouped (an integer; any other number as `String` writes it).
 * @example
 * grouped(1083382); // '1,083,382'
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  let text = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = text.length; at < digits.length; at += 3) text += `,${digits.slice(at, at + 3)}`;
  return n < 0 ? `-${text}` : text;
}
