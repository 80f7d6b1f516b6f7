/** What every benchmark module under bench/ exports; bench/run.ts runs them in order. */
export interface BenchContext {
  /** Absolute path of the repository root. */
  readonly repoRoot: string;
  /** Absolute path of bench/.out/ (gitignored); write artifacts here. */
  readonly outDir: string;
  /** `--name=value` arguments of `npm run bench`; each benchmark documents its own. */
  readonly options: Readonly<Record<string, string>>;
}

export interface Benchmark {
  /** Short name, used to select benchmarks: `npm run bench -- bundles`. */
  readonly name: string;
  readonly description: string;
  run(ctx: BenchContext): Promise<void>;
}
