/**
 * At most `limit` tasks at once; the others wait their turn in order. Keeps bursts of work that each hold a
 * PostgreSQL connection for a while (better-auth's sign-up hashes its password inside its transaction) from taking
 * every connection of the pool, after which the rest would time out waiting for one.
 */
export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, or is given back.
      if (next) next();
      else this.running -= 1;
    }
  }
}
