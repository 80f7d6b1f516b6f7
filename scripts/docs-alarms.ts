/** The stack's alarms (lib/alarms.ts `ALARMS`) and the Regions it refuses (lib/regions.ts), as the docs show them. Regions of scripts/docs.ts. */
import { ALARMS, type AlarmSpec } from '../lib/alarms.ts';
import { REGIONS_WITHOUT_SES_V2 } from '../lib/regions.ts';
import { code, duration, table } from './docs-markdown.ts';

export function renderAlarms(): string {
  return table(
    ['Alarm', 'Reads', 'Fires when', 'Threshold'],
    (Object.entries(ALARMS) as [string, AlarmSpec][]).map(([id, alarm]) => [
      code(id),
      `${alarm.metric}, ${alarm.statistic} over ${duration(alarm.periodSeconds)}`,
      alarm.when,
      `${alarm.comparison} ${alarm.threshold}`,
    ]),
  );
}

/** The Regions `cdk synth` refuses (lib/regions.ts), as docs/deploy.md lists them. */
export const renderSesRegions = (): string => REGIONS_WITHOUT_SES_V2.map(code).join(', ');
