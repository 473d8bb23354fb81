// The docs site (`npm run docs:build`, run from the repository's root): docs/ and the README rendered as
// GitHub renders them (markdown.mjs), links pointed at the site's pages (site-links.mjs), one plain layout.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPage } from './layout.mjs';
import { markdownParser } from './markdown.mjs';
import { markdownFiles } from './md-links.mjs';
import { resolveNav } from './nav.mjs';
import { siteLinks, siteUrlOf } from './site-links.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

export default function (eleventyConfig) {
  const input = 'docs';
  const outside = new Set();
  const nav = resolveNav(markdownFiles('.').filter((f) => f !== 'README.md'));
  const sourcePathOf = (data) => data.sourcePath ?? data.page.inputPath.replace(/^\.\//, '');

  eleventyConfig.setLibrary('md', markdownParser().use(siteLinks, { outside }));
  eleventyConfig.addGlobalData('layout', 'page.11ty.js');
  eleventyConfig.addGlobalData('eleventyComputed', {
    permalink: (data) => siteUrlOf(sourcePathOf(data)),
  });
  eleventyConfig.addTemplate('_includes/page.11ty.js', { render: (data) => renderPage({ content: data.content, sourcePath: sourcePathOf(data), nav }) });
  // The README is a page of the site too: its sections stand in for pages not written yet (nav.mjs).
  eleventyConfig.addTemplate('readme.md', readFileSync('README.md', 'utf8'), { sourcePath: 'README.md' });
  eleventyConfig.addPassthroughCopy(`${input}/**/*.{png,svg,jpg}`);
  eleventyConfig.addPassthroughCopy({ [path.relative(process.cwd(), path.join(here, 'site.css'))]: 'site.css' });
  eleventyConfig.on('eleventy.after', () => {
    if (outside.size) console.log(`links to repository files that are not on the site, shown as text:\n  ${[...outside].sort().join('\n  ')}`);
  });
  return { dir: { input, output: 'site' }, templateFormats: ['md'], markdownTemplateEngine: false };
}
