// Small measuring helpers shared by the benchmark sections.

export interface Row {
  group: string;
  metric: string;
  value: number;
  unit: string;
  /** Human-readable target, e.g. "< 5" (empty when the figure is informative only). */
  target: string;
  /** undefined when there is no target. */
  met: boolean | undefined;
}

/** The q-quantile (0..1) of numbers, by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export const median = (values: readonly number[]) => quantile(values, 0.5);

/** Milliseconds each of `runs` calls of fn took, after `warmup` unmeasured calls. */
export async function timeRuns(
  fn: () => unknown | Promise<unknown>,
  runs: number,
  warmup = Math.min(5, runs),
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

export function row(
  group: string,
  metric: string,
  value: number,
  unit: string,
  target?: { below?: number; atLeast?: number },
): Row {
  if (target?.below !== undefined) {
    return { group, metric, value, unit, target: `< ${target.below}`, met: value < target.below };
  }
  if (target?.atLeast !== undefined) {
    return {
      group,
      metric,
      value,
      unit,
      target: `>= ${target.atLeast}`,
      met: value >= target.atLeast,
    };
  }
  return { group, metric, value, unit, target: '', met: undefined };
}

const format = (value: number) =>
  Number.isInteger(value)
    ? String(value)
    : Math.abs(value) >= 100
      ? value.toFixed(0)
      : value.toFixed(2);

/** The rows as an aligned plain-text table. */
export function formatTable(rows: readonly Row[]): string {
  const cells = rows.map((r) => [
    r.group,
    r.metric,
    `${format(r.value)} ${r.unit}`,
    r.target ? `${r.target} ${r.unit}` : '',
    r.met === undefined ? '' : r.met ? 'met' : 'MISSED',
  ]);
  const header = ['group', 'metric', 'value', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) =>
    c
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
