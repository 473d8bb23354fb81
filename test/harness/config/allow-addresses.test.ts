import { parseJobConfig } from '../../../harness/config/load.js';
import { InputError } from '../../../tasks/problems.js';

const config = (allow: string) => `tasks:\n  path: legs\nagents:\n  - name: oracle\ntools:\n  allow_addresses: ${allow}\n`;

describe('tools.allow_addresses', () => {
  test('addresses, ranges and ports are taken; absent, the key stays out of the config (older jobs keep their fingerprint)', () => {
    expect(parseJobConfig('job.yaml', config('["10.0.0.0/8", "127.0.0.1:8080", "[::1]:9000"]')).tools.allow_addresses).toEqual(['10.0.0.0/8', '127.0.0.1:8080', '[::1]:9000']);
    expect(parseJobConfig('job.yaml', 'tasks:\n  path: legs\nagents:\n  - name: oracle\n').tools).not.toHaveProperty('allow_addresses');
  });

  test('a bad entry is one line naming the file, the line and the entry', () => {
    let message = '';
    try {
      parseJobConfig('job.yaml', config('["10.0.0.0/8", "localhost"]'));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      message = error.message;
    }
    expect(message).toMatch(/^job\.yaml:6:\d+: tools\.allow_addresses\[1\]: "localhost" is not an address, a CIDR range/);
    expect(message.split('\n')).toHaveLength(1);
  });
});
