/**
 * Promises made once per key (an image distributed, a job's network or relay set up): callers of the same key
 * share one; one that fails is forgotten, so the next caller tries again.
 */
export class OnceByKey<T> {
  private readonly made = new Map<string, Promise<T>>();

  get(key: string, make: () => Promise<T>): Promise<T> {
    let pending = this.made.get(key);
    if (!pending) {
      pending = make();
      this.made.set(key, pending);
      pending.catch(() => this.made.delete(key));
    }
    return pending;
  }

  entries(): [string, Promise<T>][] {
    return [...this.made.entries()];
  }

  delete(key: string): void {
    this.made.delete(key);
  }

  clear(): void {
    this.made.clear();
  }
}
