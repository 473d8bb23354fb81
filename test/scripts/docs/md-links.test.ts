/**
 * Every relative link and image in README.md and docs/**\/*.md resolves, file and #anchor (anchors as
 * GitHub makes them from headings), so moving README sections into docs/ cannot leave a broken link.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { brokenMarkdownLinks, markdownFiles } from '../../../scripts/docs/md-links.mjs';

describe('links between the Markdown files', () => {
  test("README.md and every page under docs/ link only to files and anchors that exist", () => {
    const files: string[] = markdownFiles(REPO_ROOT);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/wikirace.md', 'docs/reference/config.md', 'docs/reference/cli.md']));
    expect(brokenMarkdownLinks(REPO_ROOT, files)).toEqual([]);
  });

  test('a missing file, a missing anchor or a link out of the repository is one line naming the file, line and link', () => {
    const { dir, cleanup } = tempDir('aar-md-links-');
    try {
      mkdirSync(path.join(dir, 'docs', 'sub'), { recursive: true });
      writeFileSync(path.join(dir, 'README.md'), [
        '# The tool',
        '',
        '## Security: what an agent can and cannot `touch`',
        '',
        'See [the guide](docs/guide.md#running-jobs), [a gone section](docs/guide.md#flags),',
        '[security](#security-what-an-agent-can-and-cannot-touch) and [nowhere](#nowhere).',
        '',
        '```',
        '[not a link](missing-in-code.md)',
        '```',
        '<img src="docs/shot.png"> <a href="docs/sub/">the folder</a> [outside](../elsewhere.md)',
        '',
      ].join('\n'));
      writeFileSync(path.join(dir, 'docs', 'guide.md'), [
        '# Guide',
        '## Running jobs',
        '## Running jobs',
        'Back to [the top](../README.md#the-tool), [the second](#running-jobs-1), [root-relative](/docs/guide.md#guide),',
        '![a shot](shot.png) and [a page not written yet](sub/later.md).',
        '<a id="kept-anchor"></a> [kept](#kept-anchor) [https](https://example.org/x) [mail](mailto:a@b.c)',
      ].join('\n'));
      writeFileSync(path.join(dir, 'docs', 'sub', 'empty.md'), '');
      const files: string[] = markdownFiles(dir);
      expect(files).toEqual(['README.md', 'docs/guide.md', 'docs/sub/empty.md']);
      expect(brokenMarkdownLinks(dir, files)).toEqual([
        'README.md:5: docs/guide.md#flags: docs/guide.md has no heading or anchor #flags',
        'README.md:6: #nowhere: README.md has no heading or anchor #nowhere',
        'README.md:11: docs/shot.png: no such file or folder (docs/shot.png)',
        'README.md:11: ../elsewhere.md: points outside the repository',
        'docs/guide.md:5: shot.png: no such file or folder (docs/shot.png)',
        'docs/guide.md:5: sub/later.md: no such file or folder (docs/sub/later.md)',
      ]);
    } finally {
      cleanup();
    }
  });
});
