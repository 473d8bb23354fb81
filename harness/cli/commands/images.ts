import type { Command } from 'commander';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerImagesCommands(program: Command): void {
  const images = program.command('images').description('trial images: the base image and one layer per agent');
  images
    .command('build')
    .description('build the base image (and an agent layer); unchanged inputs reuse the existing image')
    .option('--agent <name>', 'also build this agent layer (claude-code, codex, mini-swe-agent)')
    .option('--base <image>', 'the Debian image to build on; auto: debian:bookworm-slim, or one bootstrapped from Debian packages', 'auto')
    .option('--ca-cert <file>', 'trust this extra CA certificate (file or folder of *.crt) inside images; repeatable', collect)
    .action(async (flags: { agent?: string; base: string; caCert?: string[] }) => {
      const { DEFAULT_IMAGE_SETTINGS, ensureAgentImage } = await import('../../../images/build.js');
      const { agentAdapter } = await import('../../agents/registry.js');
      const settings = { ...DEFAULT_IMAGE_SETTINGS, base: flags.base, ...(flags.caCert ? { caCerts: [...DEFAULT_IMAGE_SETTINGS.caCerts, ...flags.caCert] } : {}) };
      const adapter = flags.agent ? agentAdapter(flags.agent) : undefined;
      const log = (line: string): boolean => process.stderr.write(`  ${line}\n`);
      const tag = await ensureAgentImage(adapter?.imageLayer ?? null, settings, adapter?.buildArgs?.({ name: adapter.name, flags: [], env: {}, options: {} }) ?? {}, log);
      process.stdout.write(`${tag}\n`);
    });
  images
    .command('list')
    .description('list the images AAR Harness built')
    .action(async () => {
      const { requireDocker } = await import('../../../common/docker.js');
      const { IMAGE_LABEL, isTagged } = await import('../../../images/build.js');
      const docker = await requireDocker();
      const list = await docker.listImages({ filters: { label: [IMAGE_LABEL] } });
      for (const image of list.filter((i) => isTagged(i.RepoTags))) {
        const created = new Date(image.Created * 1000).toISOString().slice(0, 16).replace('T', ' ');
        for (const tag of image.RepoTags!.filter((t) => t !== '<none>:<none>')) process.stdout.write(`${tag.padEnd(36)} ${(image.Size / 1e6).toFixed(0).padStart(6)} MB  ${created}\n`);
      }
      const unfinished = list.filter((i) => !isTagged(i.RepoTags)).length;
      if (unfinished) process.stdout.write(`(${unfinished} untagged images left by interrupted builds are not listed; the next build removes them)\n`);
    });
}
