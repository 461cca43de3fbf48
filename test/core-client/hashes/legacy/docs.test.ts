import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { legacyHashFamilies } from '../../../../core-client/src/hashes/legacy/registry.js';

const page = readFileSync(new URL('../../../../docs/hashes.md', import.meta.url), 'utf8');

describe('docs/hashes.md lists the legacy families of the registry', () => {
  it('has one table row per family, in the registry order, with its label, form and usual cost', () => {
    const section = page.split(/^## Legacy families/m)[1]?.split(/^## /m)[0] ?? '';
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| Family'))
      .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |`| \|$/g, '')));
    expect(rows).toEqual(legacyHashFamilies.map((family) => [family.label, family.form, family.usualCost]));
  });
});
