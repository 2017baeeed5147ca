/**
 * The chart's arithmetic, hand-written (a few lines; no chart library needs shipping for it):
 * "nice" round ticks for the value axis and the positions of buckets along the time axis.
 */

/** Round ticks from 0 to at least `max`: 0, step, 2·step, … with step 1, 2 or 5 × 10^n. */
export function niceTicks(max: number, count = 4, whole = false): number[] {
  if (!(max > 0)) return [0, 1];
  // Counts never tick at 0.25: a step of at least 1.
  const rough = whole ? Math.max(1, max / count) : max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = 0; t < max + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

/**
 * Which of n labels to print so that about `room` fit (always the first and the last, and none
 * crowding the last), and which of those a phone leaves out as well (every other one).
 */
export function axisLabels(n: number, room: number): { index: number; narrow: boolean }[] {
  const every = Math.max(1, Math.ceil(n / Math.max(1, room)));
  const picked: { index: number; narrow: boolean }[] = [];
  for (let i = 0; i < n - 1; i += every) {
    if (n - 1 - i < every * 0.8) break;
    // On a phone: every other label, and none within two steps of the last.
    picked.push({ index: i, narrow: picked.length % 2 === 0 && n - 1 - i >= every * 1.6 });
  }
  picked.push({ index: n - 1, narrow: true });
  return picked;
}
