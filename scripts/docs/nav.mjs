/**
 * The docs site's navigation. `page` is a file under docs/; while it does not exist yet, `until` (a
 * README section whose text will move there) stands in, and an entry with neither is left out. Pages
 * under docs/ that no entry names are listed under "More", so every page is reachable.
 */
export const NAV = [
  {
    section: 'Using the harness',
    items: [
      { title: 'Getting started', page: 'getting-started.md', until: 'README.md#set-up' },
      { title: 'Running', page: 'running.md', until: 'README.md#running-jobs' },
      { title: 'Comparing', page: 'comparing.md', until: 'README.md#comparing-configurations' },
      { title: 'Comparing from code', page: 'compare-api.md' },
      { title: 'Re-verifying', page: 're-verifying.md', until: 'README.md#re-verify' },
    ],
  },
  {
    section: 'Reference',
    items: [
      { title: 'Job config', page: 'reference/config.md' },
      { title: 'CLI', page: 'reference/cli.md' },
      { title: 'Trial folder format', page: 'trial-folders.md', until: 'README.md#trial-folders' },
      { title: 'Metrics', page: 'metrics.md', until: 'README.md#metrics' },
    ],
  },
  {
    section: 'Design',
    items: [
      { title: 'Security', page: 'security.md', until: 'README.md#security-what-an-agent-can-and-cannot-touch' },
      { title: 'Architecture and seams', page: 'architecture.md', until: 'README.md#layout' },
      { title: 'Writing a plugin', page: 'plugins.md' },
    ],
  },
  {
    section: 'Benchmarks',
    items: [
      { title: 'LLM-WikiRace', page: 'wikirace.md' },
      { title: 'Benchmarks', page: 'benchmarks.md', until: 'README.md#tests-end-to-end-and-benchmarks' },
    ],
  },
  { section: 'Project', items: [{ title: 'README', page: '../README.md' }] },
];

/**
 * The navigation as it stands: sections of `{ title, target }`, target a repository path with an optional
 * `#fragment` (`docs/wikirace.md`, `README.md#set-up`). `pages` are the docs/ Markdown files that exist.
 */
export function resolveNav(pages, nav = NAV) {
  const exists = new Set(pages);
  const named = new Set();
  const sections = nav.map(({ section, items }) => ({
    section,
    items: items.flatMap(({ title, page, until }) => {
      const file = page.startsWith('../') ? page.slice(3) : `docs/${page}`;
      named.add(file);
      if (exists.has(file) || file === 'README.md') return [{ title, target: file }];
      return until ? [{ title, target: until }] : [];
    }),
  }));
  const more = pages.filter((p) => !named.has(p) && p !== 'docs/index.md');
  if (more.length) sections.push({ section: 'More', items: more.map((p) => ({ title: p.slice('docs/'.length, -'.md'.length), target: p })) });
  return sections.filter((s) => s.items.length);
}
