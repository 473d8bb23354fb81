import { chooseConcurrency, HOST_RESERVE_MB } from '../../../harness/jobs/concurrency.js';

const resources = (memory_mb: number, cpus: number) => ({ memory_mb, cpus, pids: 1024 });

describe('concurrency: auto is what the machine holds', () => {
  test('the smaller of cores / cpus and memory (less the host reserve) / memory_mb, at least one', () => {
    const twoCores = { cores: 2, memoryMb: 24 * 1024 };
    expect(chooseConcurrency({ concurrency: 'auto', resources: resources(10240, 1), environment: 'docker' }, twoCores)).toMatchObject({ value: 2, auto: true });
    expect(chooseConcurrency({ concurrency: 'auto', resources: resources(1024, 0.5), environment: 'docker' }, twoCores).value).toBe(4);
    expect(chooseConcurrency({ concurrency: 'auto', resources: resources(10240, 0.25), environment: 'docker' }, twoCores).value).toBe(Math.floor((24 * 1024 - HOST_RESERVE_MB) / 10240));
    expect(chooseConcurrency({ concurrency: 'auto', resources: resources(10240, 1), environment: 'docker' }, { cores: 64, memoryMb: 4096 }).value).toBe(1);
    expect(chooseConcurrency({ concurrency: 'auto', resources: resources(512, 4), environment: 'docker' }, { cores: 2, memoryMb: 8192 }).value).toBe(1);
    const reason = chooseConcurrency({ concurrency: 'auto', resources: resources(10240, 1), environment: 'docker' }, twoCores).reason;
    expect(reason).toBe('auto: 2 cores / 1 CPU a trial = 2; 22 GiB of memory (24 GiB less 2 GiB for the host) / 10240 MB a trial = 2');
  });

  test('a number is taken as it is; a swarm says to set it', () => {
    expect(chooseConcurrency({ concurrency: 7, resources: resources(10240, 1), environment: 'docker' }, { cores: 1, memoryMb: 1024 })).toEqual({ value: 7, auto: false, reason: 'set by concurrency' });
    expect(chooseConcurrency({ concurrency: 'auto', resources: resources(10240, 1), environment: 'swarm' })).toMatchObject({ value: 4, auto: true, reason: expect.stringContaining('set concurrency') });
  });
});
