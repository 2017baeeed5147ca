/**
 * The chart's arithmetic, hand-written (a few lines; no chart library needs shipping for it):
 * "nice" round ticks for the value axis and the positions of buckets along the time axis.
 */

/** Round ticks from 0 to at least `max`: 0, step, 2·step, … with step 1, 2 or 5 × 10^n. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = 0; t < max + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

/** Which of n labels to print so that about `room` fit: always the first and last. */
export function labelEvery(n: number, room: number): (i: number) => boolean {
  const every = Math.max(1, Math.ceil(n / Math.max(1, room)));
  return (i) => i === n - 1 || (i % every === 0 && n - 1 - i >= every / 2);
}
