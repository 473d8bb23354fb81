/** Shell quoting for commands run with `sh -c` in the container. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export const shellJoin = (args: readonly string[]): string => args.map(shellQuote).join(' ');
