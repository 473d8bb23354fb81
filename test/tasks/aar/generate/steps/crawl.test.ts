import { htmlToMarkdown } from '../../../../../tools/providers/html-markdown.js';
import { formatPage } from '../../../../../tools/catalog/web-page.js';
import { Ledger } from '../../../../../tasks/aar/generate/ledger.js';
import { LEVELS } from '../../../../../tasks/aar/generate/levels.js';
import { crawl, randomSeed, seedProblem } from '../../../../../tasks/aar/generate/steps/crawl.js';
import { readPage } from '../../../../../tasks/aar/generate/steps/page-reader.js';
import { seededRandom } from '../../../../../common/random.js';
import { exampleTools, wiki } from '../helpers.js';

/** A live Wikipedia article as the parse API gives it (trimmed): an infobox with a citation mark, links, a heading. */
const EVEREST_HTML = `<div class="mw-parser-output"><table class="infobox"><tbody>
<tr><th colspan="2" class="infobox-above">Mount Everest</th></tr>
<tr><td colspan="2"><img src="//upload.wikimedia.org/everest.jpg" alt="Everest"></td></tr>
<tr><th scope="row" class="infobox-label">Elevation</th><td class="infobox-data">8,848.86&nbsp;m<sup class="reference"><a href="#cite_note-1">[1]</a></sup></td></tr>
<tr><th scope="row" class="infobox-label">Range</th><td class="infobox-data"><a href="/wiki/Himalayas" title="Himalayas">Himalayas</a></td></tr>
<tr><th scope="row" class="infobox-label">First ascent</th><td class="infobox-data">29 May 1953</td></tr>
</tbody></table>
<p><b>Mount Everest</b> is Earth's highest mountain above sea level, located in the <a href="/wiki/Mahalangur_Himal">Mahalangur Himal</a> sub-range.</p>
<h2 id="Name">Name</h2><p>Known in Nepal as <i>Sagarmāthā</i>. See <a href="/wiki/File:Everest.jpg">the photo</a>.</p></div>`;

describe('step 1, crawl', () => {
  test('a live-shaped page: infobox rows without the citation mark, what the page is, links to articles only', () => {
    const text = formatPage('Mount Everest', wiki('Mount Everest'), htmlToMarkdown(EVEREST_HTML, 'https://en.wikipedia.org/wiki/'), 213);
    const page = readPage(wiki('Mount Everest'), text, 0);
    expect(page.infobox.map((f) => [f.key, f.value])).toEqual([['Elevation', '8,848.86 m'], ['Range', 'Himalayas'], ['First ascent', '29 May 1953']]);
    expect(page.description).toBe("Earth's highest mountain above sea level, located in the Mahalangur Himal sub-range");
    expect(page.links.map((l) => l.url)).toEqual([wiki('Himalayas'), wiki('Mahalangur Himal')]);
    expect(page.sections).toEqual([{ heading: 'Name', text: 'Known in Nepal as Sagarmāthā. See the photo.', items: [] }]);
    expect(seedProblem(page)).toBeUndefined();
  });

  test('the crawl follows links to the level\'s depth through the tool service, and stores what it saw', async () => {
    const { tools, cleanup } = exampleTools();
    try {
      const easy = await crawl(tools, wiki('Port Alder'), LEVELS.easy, new Ledger());
      const medium = await crawl(tools, wiki('Port Alder'), LEVELS.medium, new Ledger());
      if (!easy.ok || !medium.ok) throw new Error('crawl failed');
      expect(Math.max(...[...easy.value.pages.values()].map((p) => p.depth))).toBe(1);
      expect(easy.value.pages.size).toBe(1 + easy.value.seed.links.length);
      expect(medium.value.pages.size).toBeGreaterThan(easy.value.pages.size);
      expect(tools.stats.byTool.fetch_webpage).toBeGreaterThan(0);
      expect(tools.stats.stored).toBe(medium.value.pages.size);
    } finally {
      cleanup();
    }
  });

  test('each seed filter refuses its kind of page, with the reason', async () => {
    const { tools, cleanup } = exampleTools();
    try {
      const refused = async (title: string) => {
        const r = await crawl(tools, wiki(title), LEVELS.easy, new Ledger());
        return r.ok ? 'accepted' : r.reason;
      };
      expect(await refused('List of towns in Veldrania')).toMatch(/is a list, index, disambiguation or similar page/);
      expect(await refused('Tollbridge (disambiguation)')).toMatch(/disambiguation/);
      expect(await refused('Miren trout')).toMatch(/has a taxonomy infobox/);
      expect(await refused('Skarnavik')).toMatch(/is not in English/);
      expect(await refused('Nowhere')).toMatch(/^fetching .* failed: no recorded response/);
      expect(await refused('Harrow Bay')).toBe('accepted');
    } finally {
      cleanup();
    }
  });

  test('random seeds: drawn from the random-page API, the bad ones dropped with their reasons', async () => {
    const { tools, cleanup } = exampleTools();
    try {
      const ledger = new Ledger();
      const drawn = await randomSeed(tools, 40, seededRandom(3), ledger, new Set());
      expect(drawn.ok).toBe(true);
      const all = await randomSeed(tools, 40, seededRandom(3), new Ledger(), new Set());
      expect(all.ok && drawn.ok && all.value.url === drawn.value.url).toBe(true); // seeded: the same draw
      const seeds = ledger.toJson().crawl!.seeds!;
      expect(seeds.kept).toBe(1);
      // With 40 candidates tried in random order, the run stops at the first good page: the bad ones before it are dropped.
      expect(Object.values(seeds.reasons).every((r) => /list|taxonomy|English|disambiguation|infobox/.test(r.example))).toBe(true);
    } finally {
      cleanup();
    }
  });
});
