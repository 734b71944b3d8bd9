/**
 * Token buckets on an injected clock (pure logic, tested without waiting). A phone gets `burst`
 * tokens and earns `perSecond` more each second; each message spends one.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.at = now();
  }

  /** Spends one token if there is one. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** One bucket per key (e.g. per remote address), forgetting keys that have been idle a while. */
export class KeyedBuckets {
  private buckets = new Map<string, { bucket: TokenBucket; used: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
    private readonly maxKeys = 10_000,
  ) {}

  take(key: string): boolean {
    let entry = this.buckets.get(key);
    if (!entry) {
      if (this.buckets.size >= this.maxKeys) this.prune();
      entry = { bucket: new TokenBucket(this.perSecond, this.burst, this.now), used: this.now() };
      this.buckets.set(key, entry);
    }
    entry.used = this.now();
    return entry.bucket.take();
  }

  private prune(): void {
    // A bucket idle long enough to be full again holds no information.
    const full = (this.burst / this.perSecond) * 1000;
    for (const [key, entry] of this.buckets) if (this.now() - entry.used > full) this.buckets.delete(key);
    if (this.buckets.size >= this.maxKeys) this.buckets.clear();
  }
}
