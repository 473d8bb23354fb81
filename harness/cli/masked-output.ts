import { hostSecrets } from '../../common/secrets.js';

/**
 * Everything the CLI writes to the terminal (stdout, stderr) goes through the secret mask (common/secrets.ts):
 * an error that quotes an upstream's answer, or a trial's error, never prints a host key or a trial token.
 * The host's `*_API_KEY` variables are taken as secrets from the start (the model and tool providers add
 * theirs when they read them).
 */
export function maskTerminalOutput(env: NodeJS.ProcessEnv = process.env): void {
  hostSecrets.add(...Object.entries(env).filter(([name]) => name.endsWith('_API_KEY')).map(([, value]) => value));
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      write(typeof chunk === 'string' ? hostSecrets.text(chunk) : chunk instanceof Uint8Array ? hostSecrets.bytes(chunk) : chunk, ...rest)) as typeof stream.write;
  }
}
