/** `npm run dashboard`: builds the owner dashboard into dashboard/dist/files.json (docs/dashboard.md). */
import { BUILT_FILES, writeDashboard } from '../dashboard/build.ts';

const files = await writeDashboard();
const bytes = Object.values(files.assets).reduce((sum, file) => sum + Buffer.byteLength(file.body), 0);
process.stdout.write(
  `dashboard: ${Object.keys(files.assets).length} files, ${Math.round(bytes / 1024)} KiB -> ${BUILT_FILES}\n`,
);
