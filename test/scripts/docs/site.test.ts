/**
 * The docs site: `npm run docs:build` (Eleventy) renders docs/ and the README into one folder whose links
 * and anchors all resolve (`npm run docs:check`, linkinator over a loopback server); nothing is fetched
 * from outside. The build and the check run here as they do for a user, in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { checkSite } from '../../../scripts/docs/check-site.mjs';
import { markdownFiles } from '../../../scripts/docs/md-links.mjs';
import { NAV, resolveNav } from '../../../scripts/docs/nav.mjs';
import { siteHref } from '../../../scripts/docs/site-links.mjs';

const ELEVENTY = path.join(REPO_ROOT, 'node_modules', '@11ty', 'eleventy', 'cmd.cjs');
const CONFIG = path.join(REPO_ROOT, 'scripts', 'docs', 'eleventy.config.mjs');

/** `npm run docs:build`'s command, from `cwd` (a checkout: README.md and docs/) into `out`. */
function buildSite(cwd: string, out: string) {
  const run = spawnSync(process.execPath, [ELEVENTY, `--config=${CONFIG}`, `--output=${out}`, '--quiet'], { cwd, encoding: 'utf8', timeout: 120_000 });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return run.stdout;
}

describe('the docs site', () => {
  test('builds every docs page and the README, and every link and anchor on it resolves', async () => {
    const { dir, cleanup } = tempDir('aar-docs-site-');
    try {
      buildSite(REPO_ROOT, dir);
      const pages = (markdownFiles(REPO_ROOT) as string[]).map((f) => (f === 'README.md' ? 'readme.html' : f.slice('docs/'.length).replace(/\.md$/, '.html')));
      for (const page of [...pages, 'site.css', 'html-report-overview.png']) expect([page, existsSync(path.join(dir, page))]).toEqual([page, true]);
      const index = readFileSync(path.join(dir, 'index.html'), 'utf8');
      expect(index).toContain('<a href="reference/config.html">Job config</a>');
      expect(index).toContain('<a href="readme.html#running-jobs">Running</a>');
      const config = readFileSync(path.join(dir, 'reference', 'config.html'), 'utf8');
      expect(config).toContain('<a href="config.html" aria-current="page">Job config</a>');
      expect(config).toContain('<link rel="stylesheet" href="../site.css">');
      expect(readFileSync(path.join(dir, 'wikirace.html'), 'utf8')).toContain('href="readme.html#llm-wikirace"');

      const result = await checkSite(dir);
      expect(result.broken).toEqual([]);
      expect(result.fetched).toBeGreaterThanOrEqual(pages.length + 2);
      expect(result.anchors).toBeGreaterThan(50);
      expect(result.external.every((url: string) => /^https?:\/\//.test(url))).toBe(true);
    } finally {
      cleanup();
    }
  });

  test('a page that links to a missing page or anchor fails the check, naming the link and the page', async () => {
    const { dir, cleanup } = tempDir('aar-docs-broken-');
    try {
      mkdirSync(path.join(dir, 'docs'));
      writeFileSync(path.join(dir, 'README.md'), '# Tool\n\nSee [the guide](docs/guide.md#flags).\n');
      writeFileSync(path.join(dir, 'docs', 'index.md'), '# Docs\n\n[Guide](guide.md), [not written](later.md), [away](https://example.org/a).\n');
      writeFileSync(path.join(dir, 'docs', 'guide.md'), '# Guide\n\n## Running\n\n[up](#running), [down](#nowhere), [a source file](../harness/x.ts).\n');
      expect(buildSite(dir, path.join(dir, 'site'))).toContain('docs/guide.md: ../harness/x.ts');
      const result = await checkSite(path.join(dir, 'site'));
      // This README has none of the sections the navigation stands in with for pages not written yet: each is named too.
      const standIns = NAV.flatMap((s: { items: { until?: string }[] }) => s.items.flatMap((i) => (i.until ? [i.until.split('#')[1]] : [])));
      expect(result.broken).toEqual(
        [
          "/guide.html#flags (on /readme.html): Fragment identifier '#flags' not found on page",
          "/guide.html#nowhere (on /guide.html): Fragment identifier '#nowhere' not found on page",
          '/later.html (on /index.html): 404',
          ...standIns.map((a: string) => `/readme.html#${a} (on /guide.html, /index.html, /readme.html): Fragment identifier '#${a}' not found on page`),
        ].sort(),
      );
      expect(result.external).toEqual(['https://example.org/a']);
    } finally {
      cleanup();
    }
  });

  test('the navigation names a page once it exists, a README section until then, and every other page under More', () => {
    const targets = (pages: string[]) => resolveNav(pages).flatMap((s: { section: string; items: { title: string; target: string }[] }) => s.items.map((i) => `${s.section}/${i.title}: ${i.target}`));
    const now = targets(['docs/index.md', 'docs/reference/config.md', 'docs/notes.md']);
    expect(now).toEqual(expect.arrayContaining(['Using the harness/Running: README.md#running-jobs', 'Reference/Job config: docs/reference/config.md', 'More/notes: docs/notes.md']));
    expect(now.some((t: string) => t.includes('Writing a plugin'))).toBe(false);
    expect(targets(['docs/running.md', 'docs/plugins.md'])).toEqual(expect.arrayContaining(['Using the harness/Running: docs/running.md', 'Design/Writing a plugin: docs/plugins.md']));
    expect(NAV.flatMap((s: { items: unknown[] }) => s.items).length).toBeGreaterThanOrEqual(12);
  });

  test("links written for GitHub point at the site's pages", () => {
    expect(siteHref('../README.md#set-up', 'docs/wikirace.md')).toBe('readme.html#set-up');
    expect(siteHref('docs/wikirace.md#the-offered-links', 'README.md')).toBe('wikirace.html#the-offered-links');
    expect(siteHref('../wikirace.md', 'docs/reference/cli.md')).toBe('../wikirace.html');
    expect(siteHref('config.md#tasks', 'docs/reference/cli.md')).toBe('config.html#tasks');
    expect(siteHref('docs/html-report-trial.png', 'README.md')).toBe('html-report-trial.png');
    expect(siteHref('#here', 'docs/wikirace.md')).toBe('#here');
    expect(siteHref('https://example.org', 'docs/wikirace.md')).toBe('https://example.org');
    expect(siteHref('../harness/cli/program.ts', 'docs/wikirace.md')).toBeUndefined();
  });
});
