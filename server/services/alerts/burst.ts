/**
 * Counts events in a sliding window, in this process, and says when they reach a burst. Holds at
 * most `threshold` instants, whoever sends the events (webhook signature failures come from strangers).
 */
export class Burst {
  private readonly instants: number[] = [];

  constructor(
    private readonly threshold: number,
    private readonly windowMs: number,
  ) {}

  /** Notes one event at `now` (ms); true when it makes `threshold` within the window (then it starts counting again). */
  note(now: number): boolean {
    while (this.instants.length && this.instants[0]! <= now - this.windowMs) this.instants.shift();
    this.instants.push(now);
    if (this.instants.length < this.threshold) return false;
    this.instants.length = 0;
    return true;
  }
}
