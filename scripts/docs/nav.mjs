/**
 * The docs site's navigation. `page` is a file under docs/; while it does not exist yet, `until` (a
 * README section whose text will move there) stands in, and an entry with neither is left out. Pages
 * under docs/ that no entry names are listed under "More", so every page is reachable.
 */
export const NAV = [
  {
    section: 'Using the harness',
    items: [
      { title: 'Getting started', page: 'getting-started.md' },
      { title: 'Running', page: 'running.md' },
      { title: 'Agents', page: 'agents.md' },
      { title: 'Environments', page: 'environments.md' },
      { title: 'Kubernetes', page: 'kubernetes.md' },
      { title: 'Worlds', page: 'worlds.md' },
      { title: 'Generating legs', page: 'generate.md' },
      { title: 'Comparing', page: 'comparing.md' },
      { title: 'Comparing from code', page: 'compare-api.md' },
      { title: 'Looking at results', page: 'viewing.md' },
      { title: 'Re-verifying', page: 're-verifying.md' },
      { title: 'Exports', page: 'exports.md' },
    ],
  },
  {
    section: 'Reference',
    items: [
      { title: 'Job config', page: 'reference/config.md' },
      { title: 'CLI', page: 'reference/cli.md' },
      { title: 'Trial folder format', page: 'trial-folders.md' },
      { title: 'Metrics', page: 'metrics.md' },
    ],
  },
  {
    section: 'Design',
    items: [
      { title: 'How a trial runs', page: 'how-a-trial-runs.md' },
      { title: 'Security', page: 'security.md' },
      { title: 'Architecture and seams', page: 'architecture.md' },
      { title: 'Writing a plugin', page: 'plugins.md' },
    ],
  },
  {
    section: 'Benchmarks',
    items: [
      { title: 'LLM-WikiRace', page: 'wikirace.md' },
      { title: 'Tests and benchmarks', page: 'benchmarks.md' },
    ],
  },
  { section: 'Project', items: [{ title: 'README', page: '../README.md' }, { title: 'Changes', page: 'changes.md' }] },
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
