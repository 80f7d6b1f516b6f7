import type { Clock } from '../../shared/clock.ts';

/** A clock tests move by hand. */
export class TestClock implements Clock {
  constructor(private current = Date.UTC(2026, 10, 23, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}
