import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lanes } from '../lanes.ts';

/** Every folder directly under test/ that holds a test file at any depth. */
const testRoot = fileURLToPath(new URL('..', import.meta.url));
const foldersWithTests = [
  ...new Set(
    readdirSync(testRoot, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.test.ts'))
      .map((path) => path.split(/[\\/]/)[0]!),
  ),
].sort();

describe('the test lanes (test/lanes.ts)', () => {
  it('run every folder of tests, each in exactly one lane', () => {
    const laneOf = (folder: string) =>
      Object.entries(lanes)
        .filter(([, lane]) => (lane.folders as readonly string[]).includes(folder))
        .map(([name]) => name);
    expect(foldersWithTests.map((folder) => [folder, laneOf(folder).length])).toEqual(
      foldersWithTests.map((folder) => [folder, 1]),
    );
  });

  it('give every lane a folder of tests', () => {
    for (const [name, lane] of Object.entries(lanes)) {
      expect({ name, folders: lane.folders.filter((folder) => foldersWithTests.includes(folder)) }).toEqual({
        name,
        folders: lane.folders,
      });
    }
  });
});
