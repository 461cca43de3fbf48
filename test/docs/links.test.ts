import { mkdtemp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** README.md and every page of docs/: the documentation a reader follows links through. */
async function documentationFiles(base: string): Promise<string[]> {
  const pages = (await readdir(join(base, 'docs'))).filter((name) => name.endsWith('.md')).sort();
  return [join(base, 'README.md'), ...pages.map((name) => join(base, 'docs', name))];
}

/** Fenced blocks and inline code hold examples, not links: `[x](y)` inside them is text. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens (as github-slugger). */
function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor of a page, a repeated heading numbered as GitHub numbers it (`-1`, `-2`). */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  const outsideFences = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const match of outsideFences.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(match[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Each relative link of the files that points at no file, or at a heading its page does not have. */
async function brokenLinks(files: readonly string[], base: string): Promise<string[]> {
  const broken: string[] = [];
  for (const file of files) {
    const text = withoutCode(await readFile(file, 'utf8'));
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path = '', anchor] = target.split('#', 2);
      const destination = path === '' ? file : resolve(dirname(file), path);
      const where = `${relative(base, file)} → ${target}`;
      if (!(await exists(destination))) {
        broken.push(`${where}: no such file`);
      } else if (anchor !== undefined && !anchors(await readFile(destination, 'utf8')).has(anchor)) {
        broken.push(`${where}: no heading with that anchor`);
      }
    }
  }
  return broken;
}

describe('links in README.md and docs/', () => {
  it('every relative link points to an existing file and, for an #anchor, an existing heading', async () => {
    expect(await brokenLinks(await documentationFiles(root), root)).toEqual([]);
  });

  it('README links to every docs page, and each page opens with a title, its purpose and a link back', async () => {
    const [readme = '', ...pages] = await documentationFiles(root);
    const readmeText = await readFile(readme, 'utf8');
    for (const page of pages) {
      const name = relative(root, page);
      expect(readmeText, name).toContain(`](${name})`);
      const [title = '', blank, purpose = ''] = (await readFile(page, 'utf8')).split('\n');
      expect(title, name).toMatch(/^# \S/);
      expect(blank, name).toBe('');
      expect(purpose, name).toMatch(/^What this page is for: /);
      expect(await readFile(page, 'utf8'), name).toContain('](../README.md)');
    }
  });

  describe('the check itself', () => {
    let folder = '';
    afterAll(async () => {
      if (folder !== '') await rm(folder, { recursive: true, force: true });
    });

    it('names a link to a missing file, a missing heading, and accepts headings as GitHub anchors them', async () => {
      folder = await mkdtemp(join(tmpdir(), 'core-migrate-links-'));
      await mkdir(join(folder, 'docs'));
      await writeFile(
        join(folder, 'README.md'),
        [
          '# Sample',
          '[ok](docs/page.md#undo-a-push-core-migrate-rollback) [ok too](docs/page.md#its-id-the-old-systems-id-is-kept)',
          '[second](docs/page.md#notes-1) [here](#sample) [web](https://example.invalid/x.md) `[code](nowhere.md)`',
          '[gone](docs/missing.md) [no heading](docs/page.md#resume)',
        ].join('\n'),
      );
      await writeFile(
        join(folder, 'docs/page.md'),
        "# Page\n\n## Undo a push: `core-migrate rollback`\n\n## Its id: the old system's id is kept\n\n## Notes\n\n## Notes\n",
      );
      expect(await brokenLinks(await documentationFiles(folder), folder)).toEqual([
        'README.md → docs/missing.md: no such file',
        'README.md → docs/page.md#resume: no heading with that anchor',
      ]);
    });
  });
});
