/** Style sheets are imported for esbuild to bundle (dashboard/build.ts); they export nothing. */
declare module '*.css';
