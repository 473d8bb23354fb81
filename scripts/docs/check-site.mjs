// `npm run docs:check [SITE]`: every link and image of the built docs site (default site/) resolves, anchors
// included; links that leave the site are listed, never fetched. Exit 1 on a broken one.
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LinkChecker } from 'linkinator';

const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml', '.js': 'text/javascript' };

/** The site's files over HTTP on 127.0.0.1 and a free port (linkinator's own server listens on every interface). */
async function serve(root) {
  const server = http.createServer(async (request, response) => {
    const file = path.join(root, decodeURIComponent(new URL(request.url, 'http://x').pathname));
    const inside = file.startsWith(root + path.sep) || file === root;
    const target = inside && (await stat(file).catch(() => null))?.isDirectory() ? path.join(file, 'index.html') : file;
    const body = inside ? await readFile(target).catch(() => null) : null;
    response.writeHead(body ? 200 : 404, { 'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream' });
    response.end(body ?? 'not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

// linkinator sends every request through these when set, loopback too; this check talks to its own server only.
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

/**
 * Checks a built site folder: `{ fetched, anchors, broken, external }`: the pages and files fetched, the
 * links with a #fragment among them (each checked against its page's ids), the broken ones as
 * `URL (on PAGE): why` lines, and the links that leave the site.
 */
export async function checkSite(folder) {
  const root = path.resolve(folder);
  const server = await serve(root);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const external = new Set();
  const proxies = PROXY_VARIABLES.map((name) => [name, process.env[name]]);
  for (const name of PROXY_VARIABLES) delete process.env[name];
  try {
    const result = await new LinkChecker().check({
      path: base,
      recurse: true,
      checkFragments: true,
      concurrency: 8,
      timeout: 10_000,
      linksToSkip: async (link) => !link.startsWith(base) && !!external.add(link),
    });
    const local = (url) => (url ?? '').replace(base, '/');
    const broken = result.links
      .filter((l) => l.state === 'BROKEN')
      .map((l) => `${local(l.url)} (on ${local(l.parent || l.url.split('#')[0])}): ${l.failureDetails?.map((d) => d.message ?? d.status).find(Boolean) ?? `status ${l.status}`}`);
    const fetched = result.links.filter((l) => l.state !== 'SKIPPED' && !l.url.includes('#'));
    const pages = fetched.filter((l) => l.state === 'OK').map((l) => l.url.slice(base.length));
    return { fetched: fetched.length, anchors: await anchorLinks(root, pages), broken: [...new Set(broken)], external: [...external].sort() };
  } finally {
    for (const [name, value] of proxies) if (value !== undefined) process.env[name] = value;
    server.closeAllConnections();
    server.close();
  }
}

/** How many links with a #fragment the fetched pages hold (the checker validates each and reports only failures). */
async function anchorLinks(root, urls) {
  let count = 0;
  for (const url of urls.filter((u) => u === '' || u.endsWith('.html'))) {
    const html = await readFile(path.join(root, url || 'index.html'), 'utf8');
    count += [...html.matchAll(/\shref="([^"]*#[^"]*)"/g)].filter(([, href]) => !/^[a-z]+:/i.test(href)).length;
  }
  return count;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2] ?? 'site';
  const { fetched, anchors, broken, external } = await checkSite(folder);
  if (external.length) console.log(`${external.length} links leave the site (listed, not fetched):\n  ${external.join('\n  ')}`);
  console.log(`${folder}: ${fetched} pages and files fetched, ${anchors} links to #anchors on them checked, ${broken.length} broken`);
  if (broken.length) {
    console.error(broken.join('\n'));
    process.exitCode = 1;
  }
}
