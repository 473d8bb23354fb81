import { json, type FakeReply, type LoggedRequest } from './server.js';

/** Serper's search API: POST /search with X-API-KEY; the answer shape of google.serper.dev. */
export function serperHandler(key: string) {
  return (req: LoggedRequest): FakeReply => {
    if (req.path !== '/search' || req.method !== 'POST') return json({ message: 'Not found.', statusCode: 404 }, 404);
    if (req.headers['x-api-key'] !== key) return json({ message: 'Unauthorized.', statusCode: 403 }, 403);
    const body = req.json as { q: string; num?: number };
    const count = Math.min(body.num ?? 10, 3);
    return json({
      searchParameters: { q: body.q, gl: 'us', hl: 'en', type: 'search', num: body.num, engine: 'google' },
      answerBox: { title: 'Mount Everest', answer: '8,849 m', snippet: 'Mount Everest is the highest mountain.', snippetHighlighted: ['8,849 m'] },
      knowledgeGraph: {
        title: 'Mount Everest',
        type: 'Mountain',
        description: "Earth's highest mountain above sea level.",
        imageUrl: 'https://example.org/everest.png',
        attributes: { Elevation: '8,849 m', 'First ascent': 'May 29, 1953' },
      },
      organic: Array.from({ length: count }, (_, i) => ({
        title: `Result ${i + 1} for ${body.q}`,
        link: `https://example.org/${i + 1}`,
        snippet: `Snippet ${i + 1}`,
        sitelinks: [{ title: 'More', link: 'https://example.org/more' }],
        position: i + 1,
      })),
      peopleAlsoAsk: [{ question: 'How tall is Everest?' }],
      credits: 1,
    });
  };
}

/** An OpenAI-compatible POST /v1/chat/completions that answers with a fenced Python program. */
export function openAiHandler(key: string) {
  return (req: LoggedRequest): FakeReply => {
    if (req.path !== '/v1/chat/completions') return json({ error: { message: 'Unknown request URL', type: 'invalid_request_error' } }, 404);
    if (req.headers.authorization !== `Bearer ${key}`) {
      return json({ error: { message: 'Incorrect API key provided: sk-wrong.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, 401);
    }
    const body = req.json as { model: string; messages: { role: string; content: string }[] };
    return json({
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1700000000,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Here is the program:\n\n```python\nfrom datetime import date\nprint((date(2007, 1, 1) - date(1945, 10, 26)).days)\n```\n', refusal: null },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 50, completion_tokens: 30, total_tokens: 80 },
    });
  };
}
