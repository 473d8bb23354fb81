import path from 'node:path';
import { InputError } from '../../../tasks/problems.js';
import { GatewayServer } from '../../gateway/server.js';
import { ensureJobImages, imageSettings } from '../image-plan.js';
import { jobToolService } from '../job-tools.js';
import type { JobReporter } from '../reporters.js';
import { GATEWAY_SOCKET_NAME, makeSocketDir, removeStaleSocketDirs } from '../socket-dir.js';
import type { OpenedJob } from './open.js';
import type { ModelsFactory } from './options.js';

/** What the job's trials share once provisioned: their images, the gateway and its socket folder. */
export interface ProvisionedJob {
  /** Image tag per agent id. */
  images: Map<string, string>;
  instructionTemplate?: string;
  gateway: GatewayServer;
  models?: ReturnType<ModelsFactory>;
  socketDir: string;
}

/**
 * The job's second phase, for the trials to run: the instruction template tried once, the images built,
 * job.json written (nothing is left to refuse the run), and the gateway (tools and model traffic)
 * listening on a fresh socket folder.
 */
export async function provisionJob(job: OpenedJob, reporter: JobReporter, modelsFor?: ModelsFactory): Promise<ProvisionedJob> {
  const { loaded, family, toRun } = job;
  const { config } = loaded;
  const instructionTemplate = config.instruction_template ? loaded.resolve(config.instruction_template) : undefined;
  // Rendered once before any container starts: a template that cannot be read fails the job here, by name.
  try {
    family.renderInstruction(toRun[0].task, { templatePath: instructionTemplate, stepBudget: family.stepBudget(toRun[0].task), attempt: toRun[0].attempt });
  } catch (error) {
    throw new InputError([{ file: loaded.file, path: 'instruction_template', message: (error as Error).message }]);
  }

  const images = await ensureJobImages(toRun, imageSettings(config, loaded), (line) => reporter.note(line));
  // Written once nothing is left to refuse the run: a refused run leaves no job.json (or the old one as it was).
  job.jobFile.write();

  const models = modelsFor?.(config, loaded.resolve);
  const gateway = new GatewayServer({ tools: jobToolService(loaded, family.tools), models });
  await removeStaleSocketDirs();
  const socketDir = makeSocketDir();
  await gateway.listenSocket(path.join(socketDir, GATEWAY_SOCKET_NAME));
  return { images, instructionTemplate, gateway, models, socketDir };
}
