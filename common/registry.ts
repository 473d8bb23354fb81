/**
 * A seam's registry: its entries by name, in the order they were added, each with where it came from
 * (`built-in`, or the plugin that registered it). `entries` and `names` are live arrays: code that read them
 * at import time sees entries a plugin adds later.
 */

/** Where a registered entry came from: `built-in`, or a plugin as `name@version (path)`. */
export const BUILT_IN = 'built-in';

let generation = 0;

/** Counts the entries added to any registry: what is derived from several (the job config's schema) is rebuilt when it moved. */
export const registryGeneration = (): number => generation;

export interface RegisteredEntry<T> {
  readonly name: string;
  readonly entry: T;
  readonly from: string;
}

export class Registry<T> {
  /** The entries, in order (live). */
  readonly entries: T[] = [];
  /** Their names, in the same order (live). */
  readonly names: string[] = [];
  private readonly byName = new Map<string, RegisteredEntry<T>>();
  private readonly listeners: ((added: RegisteredEntry<T>) => void)[] = [];

  /**
   * @param seam what an entry is, in messages (`agent`, `task family`, `model API`).
   * @param nameOf an entry's name, as configs and commands give it.
   */
  constructor(
    readonly seam: string,
    private readonly nameOf: (entry: T) => string,
  ) {}

  /** Adds an entry; a name already taken is an error naming both sources. */
  add(entry: T, from: string = BUILT_IN): T {
    const name = this.nameOf(entry);
    const taken = this.byName.get(name);
    if (taken) throw new Error(`${this.seam} '${name}' is registered twice: by ${taken.from} and by ${from}`);
    const registered = { name, entry, from };
    this.byName.set(name, registered);
    this.entries.push(entry);
    this.names.push(name);
    generation++;
    for (const listener of this.listeners) listener(registered);
    return entry;
  }

  find(name: string): T | undefined {
    return this.byName.get(name)?.entry;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The entry of this name; an unknown name is an error naming the known ones. */
  get(name: string): T {
    const found = this.byName.get(name);
    if (!found) throw new Error(this.unknownMessage(name));
    return found.entry;
  }

  unknownMessage(name: string): string {
    return `unknown ${this.seam} '${name}'; known: ${this.names.join(', ')}`;
  }

  /** Every entry with its name and where it came from. */
  registered(): RegisteredEntry<T>[] {
    return [...this.byName.values()];
  }

  fromOf(name: string): string | undefined {
    return this.byName.get(name)?.from;
  }

  /** Calls `listener` for each entry added from now on (tables derived from the entries keep up). */
  onAdd(listener: (added: RegisteredEntry<T>) => void): void {
    this.listeners.push(listener);
  }
}
