/**
 * The watch for a pause from outside (harness/environments/docker/fate.ts): one events stream serves every
 * running trial of the process, a pause reaches only the container paused, and the stream closes with the
 * last watch and opens again with the next one.
 */
import { jest } from '@jest/globals';
import { docker, dockerAvailable } from '../../../../common/docker.js';
import { watchForPause } from '../../../../harness/environments/docker/fate.js';
import { countEngineCalls, dockerUsage } from '../../../../harness/environments/docker/usage.js';
import { ensureBaseImage } from '../../../../images/build.js';

const HAVE_DOCKER = await dockerAvailable();
const image = HAVE_DOCKER ? await ensureBaseImage() : '';
const suite = `aar-test-pause-watch-${process.pid}`;
jest.setTimeout(120_000);

const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'not seen'> =>
  Promise.race([promise, new Promise<'not seen'>((resolve) => setTimeout(() => resolve('not seen'), ms).unref())]);

async function sleeper(): Promise<string> {
  const c = await docker().createContainer({ Image: image, Cmd: ['sleep', '60'], Labels: { 'aar.job_key': suite }, HostConfig: { NetworkMode: 'none' } });
  await c.start();
  return c.id;
}

(HAVE_DOCKER ? describe : describe.skip)('the watch for a pause from outside', () => {
  afterAll(async () => {
    const left = await docker().listContainers({ all: true, filters: { label: [`aar.job_key=${suite}`] } });
    await Promise.all(left.map((c) => docker().getContainer(c.Id).remove({ force: true })));
  });

  test('two trials share one events stream; the pause reaches only the container paused', async () => {
    const [a, b] = [await sleeper(), await sleeper()];
    countEngineCalls();
    const before = dockerUsage.apiCalls;
    const watchA = watchForPause(a);
    const watchB = watchForPause(b);
    // The stream is asked for once, by the first watch.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(dockerUsage.apiCalls - before).toBe(1);

    await docker().getContainer(a).pause();
    expect(await within(watchA.seen, 10_000)).toBe('pause');
    expect(await within(watchB.seen, 1_000)).toBe('not seen');
    await docker().getContainer(a).unpause();
    watchA.stop();
    watchB.stop();

    // The last stop closed the stream: the next watch opens a new one, and it sees a pause too.
    const again = dockerUsage.apiCalls;
    const watchB2 = watchForPause(b);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(dockerUsage.apiCalls - again).toBe(1);
    await docker().getContainer(b).pause();
    expect(await within(watchB2.seen, 10_000)).toBe('pause');
    await docker().getContainer(b).unpause();
    watchB2.stop();
  });
});
