// Follows a keychain inside the trial container: reads the start key from /app/instruction.md, asks the
// `tools` command for each key's value until one starts with "=", and writes that value to /app/answer.txt.
// HOPPER_MAX_HOPS stops it early (then it answers with the key it reached: a wrong answer on purpose).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const instruction = readFileSync('/app/instruction.md', 'utf8');
let key = /Start key: `([^`]+)`/.exec(instruction)?.[1];
if (!key) throw new Error('no start key in /app/instruction.md');
const maxHops = Number(process.env.HOPPER_MAX_HOPS || 100);
let answer = key;
for (let hop = 0; hop < maxHops; hop++) {
  const value = execFileSync('tools', ['keychain_get', JSON.stringify({ key })], { encoding: 'utf8' }).trim();
  if (value.startsWith('=')) {
    answer = value.slice(1);
    break;
  }
  key = answer = value;
}
writeFileSync('/app/answer.txt', `${answer}\n`);
