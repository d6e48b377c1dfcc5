/**
 * Number formatting shared by the element shell and the report view.
 * @module
 */

/**
 * Human units for byte counts (decimal, as file managers show them).
 * @example
 * formatBytes(1_500_000); // '1.5 MB'
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
