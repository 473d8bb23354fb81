import { Option, type Command } from 'commander';

/** Every command's choice of output is `--format text|json`; the older `--json` still works, unlisted. */
export function addFormatOption(cmd: Command, json: string): Command {
  return cmd.option('--format <format>', `text, or json: ${json}`, 'text').addOption(new Option('--json', 'the same as --format json').hideHelp());
}

/** The format asked for; anything but text or json is one line naming the flag. */
export function formatOf(flags: { format?: string; json?: boolean }): 'text' | 'json' {
  if (flags.json) return 'json';
  const format = flags.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new Error(`--format: expected text or json, got ${format}`);
  return format;
}
