// README.md's JavaScript example runs as shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

test("README's JavaScript example runs", async () => {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('\n### JavaScript\n'));
  const match = section.match(/\n```js\n([\s\S]*?)\n```\n/);
  assert.ok(match, "README's JavaScript section has no js block");
  // Beside minizulip.js, whose path the example imports; git ignores it.
  const file = new URL('../readme-example.tmp.mjs', import.meta.url);
  await writeFile(file, match[1]);
  try {
    await import(fileURLToPath(file));
  } finally {
    await rm(file, { force: true });
  }
});
