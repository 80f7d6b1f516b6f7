import { type BundleResult, type InputShare, topDirectories, topInputs, topPackages } from './bundle.ts';

const shareLines = (shares: readonly InputShare[], total: number): string[] =>
  shares.map(
    (s, i) =>
      `${i + 1}. \`${s.path}\` — ${(s.bytes / 1024).toFixed(1)} KiB (${((100 * s.bytes) / total).toFixed(1)}%)`,
  );

/** What the largest bundle is made of, by input, directory and package. */
export function compositionSection(id: string, bundle: BundleResult): string {
  return [
    `### What is in the largest bundle (${id}, ${(bundle.bytes / 1024).toFixed(1)} KiB)`,
    '',
    'Top 5 inputs by bytes in the minified output:',
    '',
    ...shareLines(topInputs(bundle.metafile, 5), bundle.bytes),
    '',
    'Top 5 directories:',
    '',
    ...shareLines(topDirectories(bundle.metafile, 5), bundle.bytes),
    '',
    'Top 5 packages:',
    '',
    ...shareLines(topPackages(bundle.metafile, 5), bundle.bytes),
    '',
    `Full metafile: bench/.out/${id}/meta.json (load it in https://esbuild.github.io/analyze/).`,
  ].join('\n');
}
