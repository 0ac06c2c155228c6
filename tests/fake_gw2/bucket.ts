/**
 * The fake's own token bucket, like upstream's per-IP limiter: `burst` tokens, refilled
 * continuously at `perSec` tokens a second, one token per request. An empty bucket means
 * 429 `too many requests`, so a server that over-spends is caught by the tests.
 *
 * @module
 */

/** A token bucket on an injected clock. */
export class TokenBucket {
  readonly #burst: number;
  readonly #perSec: number;
  readonly #now: () => number;
  #tokens: number;
  #updatedAt: number;

  /**
   * @param burst capacity (may be Infinity to disable limiting)
   * @param perSec refill rate in tokens a second (0 for none)
   * @param now the clock, epoch ms
   */
  constructor(burst: number, perSec: number, now: () => number) {
    if (!(burst >= 1)) throw new RangeError(`Cannot create a token bucket: burst is ${burst}`);
    if (!(perSec >= 0)) throw new RangeError(`Cannot create a token bucket: rate is ${perSec}`);
    this.#burst = burst;
    this.#perSec = perSec;
    this.#now = now;
    this.#tokens = burst;
    this.#updatedAt = now();
  }

  /** Takes one token; false when the bucket is empty. */
  take(): boolean {
    this.#refill();
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Tokens available now (fractional while refilling). */
  get tokens(): number {
    this.#refill();
    return this.#tokens;
  }

  /** Fills the bucket to capacity. */
  fill(): void {
    this.#tokens = this.#burst;
    this.#updatedAt = this.#now();
  }

  #refill(): void {
    const now = this.#now();
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#updatedAt = now;
    if (this.#tokens === Infinity) return;
    this.#tokens = Math.min(this.#burst, this.#tokens + (elapsed * this.#perSec) / 1000);
  }
}
