import { startRuleModelServer, type RuleModelServer } from '../../../../../tasks/aar/generate/model/rule-server.js';
import { scriptedReply } from '../../../../../tasks/aar/generate/model/scripted.js';

let server: RuleModelServer;
beforeAll(async () => {
  server = await startRuleModelServer();
});
afterAll(() => server.stop());

const prompt = 'Correct the riddle.\n<<DATA correct>>\n{"riddle":"Go to Port Alder and count.","titles":["Port Alder"]}\n<<END DATA>>';
const post = (path: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe("the scripted model's own server (no test code)", () => {
  test('answers Messages and Chat Completions whole, with the rule reply and usage', async () => {
    const expected = scriptedReply(prompt);
    expect(expected).not.toContain('Port Alder');
    const messages = await post('/v1/messages', { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: prompt }] }, { 'x-api-key': server.key });
    expect(messages.status).toBe(200);
    const m = (await messages.json()) as { type: string; content: { text: string }[]; usage: { input_tokens: number; output_tokens: number } };
    expect(m.type).toBe('message');
    expect(m.content[0]!.text).toBe(expected);
    expect(m.usage.output_tokens).toBe(Math.ceil(expected.length / 4));
    const chat = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: prompt }] }, { authorization: `Bearer ${server.key}` });
    const c = (await chat.json()) as { choices: { message: { content: string } }[]; usage: { completion_tokens: number } };
    expect(c.choices[0]!.message.content).toBe(expected);
  });

  test('refuses a wrong key, a stream, another path and a body that is not JSON', async () => {
    expect((await post('/v1/messages', { messages: [] }, { 'x-api-key': 'wrong' })).status).toBe(401);
    expect((await post('/v1/messages', { stream: true, messages: [] }, { 'x-api-key': server.key })).status).toBe(400);
    expect((await post('/v1/embeddings', {}, { 'x-api-key': server.key })).status).toBe(404);
    const bad = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${server.key}` }, body: '{' });
    expect(bad.status).toBe(400);
  });
});
