/** Runs a recurring log at most once per interval (an outage repeats the same failure many times a second). */
export class Throttle {
  private last = 0;
  private suppressed = 0;
  constructor(private readonly intervalMs: number) {}

  run(log: (suppressed: number) => void): void {
    const now = Date.now();
    if (now - this.last < this.intervalMs) {
      this.suppressed++;
      return;
    }
    log(this.suppressed);
    this.last = now;
    this.suppressed = 0;
  }
}
