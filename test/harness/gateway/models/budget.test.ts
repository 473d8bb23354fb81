import { startScriptedModelServer, type ScriptedModelServer } from '../../../doubles/scripted-model/server.js';
import { bearer, claudeCodeBody, claudeCodeHeaders, codexBody, miniSweBody, postJson, startModelGateway, type ModelGateway } from './fixtures.js';

let upstream: ScriptedModelServer;
let gw: ModelGateway;

beforeAll(async () => {
  upstream = await startScriptedModelServer({ script: [{ bash: 'ls' }, { bash: 'pwd' }, { bash: 'id' }, { text: 'Done.' }] });
  gw = await startModelGateway({ anthropicBaseUrl: upstream.anthropicBaseUrl, openaiBaseUrl: upstream.openaiBaseUrl });
});
afterAll(async () => {
  await gw.close();
  await upstream.stop();
});

const user = [{ role: 'user', content: 'go' }];
const claude = (token: string) => postJson(`${gw.url}/anthropic/v1/messages?beta=true`, claudeCodeHeaders(token), claudeCodeBody(user));
const codex = (token: string) => postJson(`${gw.url}/openai/v1/responses`, bearer(token), codexBody(user));
const mini = (token: string) => postJson(`${gw.url}/openai/v1/chat/completions`, bearer(token), miniSweBody(user));

describe('equal budgets', () => {
  test('maxTurns = 2: the third request gets the Anthropic error, is not forwarded and is logged', async () => {
    const trial = gw.newTrial({ maxTurns: 2 });
    expect((await claude(trial.token)).status).toBe(200);
    expect((await claude(trial.token)).status).toBe(200);
    const before = upstream.requests.length;
    const third = await claude(trial.token);
    expect(third.status).toBe(400);
    expect(third.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/AAR step budget used up: 2 of 2/) } });
    expect(upstream.requests.length).toBe(before);
    expect(trial.usage).toMatchObject({ turns: 2, answered: 2, budgetExceeded: true });
    expect(gw.logOf(trial).at(-1)).toMatchObject({ status: 400, turn: null, attempts: 0, budget_exceeded: true, error: expect.stringContaining('step budget') });
  });

  test('the OpenAI shape carries code aar_budget_exhausted (Responses and Chat)', async () => {
    for (const send of [codex, mini]) {
      const trial = gw.newTrial({ maxTurns: 1 });
      expect((await send(trial.token)).status).toBe(200);
      const refused = await send(trial.token);
      expect(refused.status).toBe(400);
      expect(refused.json()).toEqual({ error: { message: expect.stringMatching(/AAR step budget used up/), type: 'invalid_request_error', code: 'aar_budget_exhausted', param: null } });
      expect(trial.usage.budgetExceeded).toBe(true);
    }
  });

  test('concurrent requests never exceed maxTurns', async () => {
    const trial = gw.newTrial({ maxTurns: 2 });
    const statuses = (await Promise.all(Array.from({ length: 6 }, () => codex(trial.token)))).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 400, 400, 400, 400]);
    expect(trial.usage.turns).toBe(2);
  });

  test('the token cap: input + output reaching maxTokens stops the next turn', async () => {
    const trial = gw.newTrial({ maxTokens: 1050 });
    expect((await claude(trial.token)).status).toBe(200); // 1000 in + 50 out
    const refused = await claude(trial.token);
    expect(refused.status).toBe(400);
    expect(refused.json().error.message).toMatch(/AAR token budget used up: 1050 of 1050 tokens/);
    expect(trial.usage).toMatchObject({ turns: 1, budgetExceeded: true });
  });

  test('the cost cap, and a model without a price (cost null, said in the log, never capped)', async () => {
    const trial = gw.newTrial({ maxCostUsd: 0.003 });
    expect((await claude(trial.token)).status).toBe(200); // claude-sonnet-4-6: 1000 * $3 + 50 * $15 per million = $0.00375
    const refused = await claude(trial.token);
    expect(refused.json().error.message).toMatch(/AAR cost budget used up: \$0\.003750 of \$0\.003/);
    expect(trial.usage.costUsd).toBeCloseTo(0.00375, 12);

    const unpriced = gw.newTrial({ maxCostUsd: 0.000001 });
    const body = { ...codexBody(user), model: 'house-model-7' };
    for (let i = 0; i < 2; i++) expect((await postJson(`${gw.url}/openai/v1/responses`, bearer(unpriced.token), body)).status).toBe(200);
    expect(unpriced.usage).toMatchObject({ turns: 2, costUsd: 0, inputTokens: 2000 });
    expect(gw.logOf(unpriced)[0]).toMatchObject({ model: 'house-model-7', cost_usd: null, note: expect.stringContaining('no price for model house-model-7') });
  });
});
