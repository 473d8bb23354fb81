import { z } from 'zod';
import { defineTool, toolHelp } from '../../../tools/catalog/define.js';
import { checkToolArgs, findTool, TOOL_ALIASES, TOOLS } from '../../../tools/catalog/index.js';
import { TOOL_HELP } from '../../../container/help-table.js';

const spec = {
  name: 'demo',
  group: 'web' as const,
  summary: 'A tool for the test.',
  returns: 'nothing',
  example: { query: 'x' },
  runsIn: 'gateway' as const,
  provider: 'serper' as const,
};

describe('one definition per tool', () => {
  test('the documented arguments are read off the schema: name, type, required, description', () => {
    const tool = defineTool({
      ...spec,
      args: () =>
        z.preprocess(
          (v) => v,
          z.object({
            query: z.string().describe('search terms'),
            limit: z.coerce.number().int().optional().describe('how many'),
            exact: z.boolean().optional().describe('exact match'),
            near: z.array(z.string()).meta({ typeLabel: 'list of places' }).describe('where'),
            secret: z.string().optional().meta({ undocumented: true, description: 'not for agents' }),
          }),
        ),
    });
    expect(tool.params).toEqual([
      { name: 'query', type: 'string', required: true, doc: 'search terms' },
      { name: 'limit', type: 'integer', required: false, doc: 'how many' },
      { name: 'exact', type: 'boolean', required: false, doc: 'exact match' },
      { name: 'near', type: 'list of places', required: true, doc: 'where' },
    ]);
  });

  test('an argument without a description is refused', () => {
    expect(() => defineTool({ ...spec, args: () => z.object({ query: z.string() }) }).params).toThrow('demo.query: give the argument a description');
  });

  test('the help of a tool is its definition without the schema', () => {
    const help = toolHelp(findTool('web_search')!);
    expect(help).toEqual({
      name: 'web_search',
      aliases: ['serper_search', 'serper_google_search'],
      group: 'web',
      summary: findTool('web_search')!.summary,
      returns: findTool('web_search')!.returns,
      params: findTool('web_search')!.params,
      example: { query: 'tallest mountain in Europe' },
      runsIn: 'gateway',
    });
    expect(JSON.parse(JSON.stringify(TOOL_HELP))).toEqual(TOOL_HELP);
  });

  test('aliases come from the definitions', () => {
    // serper_google_search: the name the AAR authors' MCP server gives it.
    expect(TOOL_ALIASES).toEqual({ serper_search: 'web_search', serper_google_search: 'web_search' });
  });

  test('every tool documents its arguments', () => {
    for (const tool of TOOLS) expect(tool.params.length).toBeGreaterThan(0);
  });

  test('every host tool names a provider; the container tool none', () => {
    for (const tool of TOOLS) expect(Boolean(tool.provider)).toBe(tool.runsIn === 'gateway');
  });

  test('weather_historical: end_date is optional, so a call without dates is told only about start_date', () => {
    const r = checkToolArgs(findTool('weather_historical')!, { latitude: 1, longitude: 2 });
    expect(r).toEqual({ ok: false, error: 'invalid arguments for weather_historical: start_date: Invalid input: expected string, received undefined' });
    expect(findTool('weather_historical')!.params.find((p) => p.name === 'end_date')?.required).toBe(false);
  });
});
