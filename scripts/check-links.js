// Offline Markdown link check: every relative link and #anchor in README.md, docs/**/*.md and bench/*.md must
// name an existing file and heading (GitHub's heading slugs). External links are listed, never fetched.
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

const root = join(__dirname, '..');

function markdownFiles() {
  const files = [join(root, 'README.md')];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) files.push(p);
    }
  };
  walk(join(root, 'docs'));
  const bench = join(root, 'bench');
  if (existsSync(bench)) for (const name of readdirSync(bench)) if (name.endsWith('.md')) files.push(join(bench, name));
  return files.filter((f) => existsSync(f));
}

/** The text with fenced code blocks blanked (line numbers kept) and, unless keepSpans, inline code spans removed. */
function prose(text, keepSpans = false) {
  let fence = null;
  return text
    .split('\n')
    .map((line) => {
      const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fence) {
        if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null;
        return '';
      }
      if (open) {
        fence = open[1];
        return '';
      }
      return keepSpans ? line : line.replace(/(`+)[^`]*?\1/g, '');
    })
    .join('\n');
}

/** GitHub's slug of a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link keeps its text
    .replace(/<[^>]+>/g, '') // HTML tags go
    .replace(/`/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map();

/** The anchors a Markdown file defines: heading slugs (numbered when repeated) and explicit <a id|name>. */
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const raw = readFileSync(file, 'utf8');
  const anchors = new Set();
  const seen = new Map();
  for (const line of prose(raw, true).split('\n')) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
  }
  for (const m of raw.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  anchorCache.set(file, anchors);
  return anchors;
}

/** Every link target in a file with its line: inline links and images, reference definitions, autolinks. */
function linksOf(file) {
  const links = [];
  prose(readFileSync(file, 'utf8'))
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push([m[1], i + 1]);
      const def = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
      if (def) links.push([def[1], i + 1]);
      for (const m of line.matchAll(/<(https?:\/\/[^>\s]+)>/g)) links.push([m[1], i + 1]);
    });
  return links;
}

function check() {
  const problems = [];
  const external = new Set();
  const files = markdownFiles();
  for (const file of files) {
    const where = relative(root, file);
    for (const [target, line] of linksOf(file)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        if (/^https?:/i.test(target)) external.add(target);
        continue;
      }
      const [pathPart, anchor] = target.split('#', 2);
      const path = decodeURIComponent(pathPart);
      const dest = path === '' ? file : resolve(dirname(file), path);
      if (!dest.startsWith(root) || !existsSync(dest)) {
        problems.push(`${where}:${line}: ${target}: no such file`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(dest).isDirectory() || !dest.endsWith('.md')) {
        problems.push(`${where}:${line}: ${target}: an anchor into a file that is not Markdown`);
      } else if (!anchorsOf(dest).has(decodeURIComponent(anchor))) {
        problems.push(`${where}:${line}: ${target}: no heading or anchor #${anchor} in ${relative(root, dest)}`);
      }
    }
  }
  return { files, problems, external: [...external].sort() };
}

if (require.main === module) {
  const { files, problems, external } = check();
  for (const url of external) console.log(`external (not fetched): ${url}`);
  for (const p of problems) console.error(p);
  console.log(
    `${files.length} Markdown files, ${external.length} external links listed (not fetched), ` +
      `${problems.length} broken`,
  );
  process.exitCode = problems.length > 0 ? 1 : 0;
}

module.exports = { slug, anchorsOf, linksOf, check };
