/**
 * An application's insights (docs/api.md "Insights: statistics"): sign-ins and new users per UTC day
 * over the last 7, 30 or 90 days, drawn by uPlot on a canvas, with the totals over the range and the
 * users and active sessions now. The range is in the URL (`?range=7`), so a view can be bookmarked.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { type Answer, call } from '../api.ts';
import { ApplicationFrame } from '../frames.tsx';
import type { ScreenProps } from '../screens.ts';
import { Empty, Show, TableBox, useLoad } from '../ui.tsx';
import { Choice, count, dayLabel, setQuery } from './insights-parts.tsx';

type Statistics = Answer<'getStatistics'>;

/** The ranges offered; the API takes at most 90 days (docs/api.md "Insights: statistics"). */
const RANGES = [7, 30, 90] as const;
const DEFAULT_RANGE = 30;
const RANGE_OPTIONS = RANGES.map((days) => ({ value: String(days), label: `Last ${days} days` }));

const rangeOf = (text: string | null): number =>
  RANGES.find((days) => String(days) === text) ?? DEFAULT_RANGE;

const DAY_MS = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The `days` UTC days ending today, both ends included, as the API's `from` and `to`. */
function lastDays(days: number): { from: string; to: string } {
  const now = Date.now();
  return { from: isoDay(now - (days - 1) * DAY_MS), to: isoDay(now) };
}

export default function Insights(props: ScreenProps) {
  const applicationId = props.params.applicationId ?? '';
  const days = rangeOf(props.query.get('range'));
  return (
    <ApplicationFrame
      applicationId={applicationId}
      tab="Insights"
      title={(application) => `Insights: ${application.name}`}
    >
      {() => (
        <>
          <Choice
            label="Range"
            value={String(days)}
            options={RANGE_OPTIONS}
            onChange={(value) => setQuery(props.query, 'range', value === String(DEFAULT_RANGE) ? '' : value)}
          />
          <StatisticsView applicationId={applicationId} days={days} />
        </>
      )}
    </ApplicationFrame>
  );
}

function StatisticsView(props: { applicationId: string; days: number }) {
  const { from, to } = lastDays(props.days);
  const loaded = useLoad(
    () => call('getStatistics', { params: { applicationId: props.applicationId }, query: { from, to } }),
    [props.applicationId, from, to],
  );
  return (
    <Show loaded={loaded} what="the statistics">
      {(statistics) => (
        <>
          <Totals statistics={statistics} />
          <DaySeries title="Sign-ins per day" noun="sign-in" statistics={statistics} field="signIns" />
          <DaySeries title="New users per day" noun="new user" statistics={statistics} field="newUsers" />
        </>
      )}
    </Show>
  );
}

function Totals(props: { statistics: Statistics }) {
  const { totals, range } = props.statistics;
  return (
    <section class="card" aria-labelledby="insights-totals">
      <h2 id="insights-totals">Totals</h2>
      <p class="muted">
        Sign-ins and new users from {dayLabel(range.from)} to {dayLabel(range.to)} (UTC days); users and
        active sessions now.
      </p>
      <dl class="facts">
        <dt>Sign-ins</dt>
        <dd>{totals.signIns}</dd>
        <dt>New users</dt>
        <dd>{totals.newUsers}</dd>
        <dt>Users now</dt>
        <dd>{totals.users}</dd>
        <dt>Active sessions now</dt>
        <dd>{totals.activeSessions}</dd>
      </dl>
    </section>
  );
}

/** The per-day count a series shows. */
type Field = 'signIns' | 'newUsers';
type Day = Statistics['days'][number];

/**
 * One count per day: a chart and, right below it, the same numbers as a table. The table is always
 * shown, not behind a `<details>` disclosure: a screen-reader user who jumps by heading or by table
 * reaches the numbers at once, without first finding and opening a control, and the chart's own
 * label (its `role="img"` name) already gives the summary, so the two never repeat each other's job.
 */
function DaySeries(props: { title: string; noun: string; statistics: Statistics; field: Field }) {
  const { title, field } = props;
  const { days, range } = props.statistics;
  const headingId = `series-${field}`;
  const total = days.reduce((sum, day) => sum + day[field], 0);
  const peak = days.reduce<Day | undefined>(
    (best, day) => (best && best[field] >= day[field] ? best : day),
    undefined,
  );
  const summary =
    `${title}, ${count(days.length, 'day')}, ${total} in total` +
    (peak && peak[field] > 0 ? `, most on ${dayLabel(peak.date)}: ${peak[field]}` : '');
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {total === 0 ? (
        <Empty>
          No {props.noun}s in these {count(days.length, 'day')}.
        </Empty>
      ) : (
        <>
          <DayChart label={summary} days={days} field={field} />
          <TableBox label={title}>
            <table>
              <caption>
                {title}, {dayLabel(range.from)} to {dayLabel(range.to)}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">{props.noun.charAt(0).toUpperCase() + props.noun.slice(1)}s</th>
                </tr>
              </thead>
              <tbody>
                {days.map((day) => (
                  <tr key={day.date}>
                    <th scope="row">
                      <time dateTime={day.date}>{dayLabel(day.date)}</time>
                    </th>
                    <td>{day[field]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableBox>
        </>
      )}
    </section>
  );
}

const HEIGHT = 220;
const DAY_S = 86_400;
const DAY_STEPS = [1, 2, 7, 14, 28].map((days) => days * DAY_S);
const shortDay = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric' });
/** Whole-number steps for the count axis: a day holds no half sign-in. */
const WHOLE_STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000,
];

/** A colour of the style sheet's palette (dashboard/src/styles.css), for the canvas, which CSS does not reach. */
const paletteColour = (name: string, fallback: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

function chartOptions(width: number): uPlot.Options {
  const ink = paletteColour('--muted', '#4a5263');
  const grid = { stroke: paletteColour('--line', '#d5dae3'), width: 1 };
  const accent = paletteColour('--accent', '#2d5be3');
  return {
    width,
    height: HEIGHT,
    // The API's days are UTC days: the axis names them so, whatever the reader's time zone.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1e3), 'Etc/UTC'),
    // The numbers are in the table below the chart; uPlot's hover legend is a table of its own.
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: true, range: (_plot, min, max) => [min - DAY_S / 2, max + DAY_S / 2] },
      y: { range: (_plot, _min, max) => [0, Math.max(1, max)] },
    },
    axes: [
      {
        stroke: ink,
        grid,
        ticks: grid,
        // Whole days only: the API counts by UTC day, so an axis of hours would name what it has not.
        incrs: DAY_STEPS,
        space: 56,
        values: (_plot, splits) => splits.map((seconds) => shortDay.format(new Date(seconds * 1000))),
      },
      { stroke: ink, grid, ticks: grid, incrs: WHOLE_STEPS, values: (_plot, splits) => splits.map(String) },
    ],
    series: [
      {},
      {
        stroke: accent,
        fill: accent,
        width: 1,
        paths: uPlot.paths.bars?.({ size: [0.7, 48] }),
        points: { show: false },
      },
    ],
  };
}

/**
 * The chart: uPlot on a canvas as wide as its box, drawn again at the box's new width when it changes
 * (a rotated phone, a narrowed window), and destroyed with the component. The canvas is an image
 * named by `label`; uPlot sets sizes through `element.style`, which the page's CSP
 * (`style-src 'self'`) allows.
 */
function DayChart(props: { label: string; days: readonly Day[]; field: Field }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const xs = props.days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
    const ys = props.days.map((day) => day[props.field]);
    let width = element.clientWidth;
    const plot = new uPlot(chartOptions(width), [xs, ys], element);
    const canvas = plot.root.querySelector('canvas');
    canvas?.setAttribute('role', 'img');
    canvas?.setAttribute('aria-label', props.label);
    const observer = new ResizeObserver(() => {
      const next = element.clientWidth;
      if (next > 0 && next !== width) {
        width = next;
        plot.setSize({ width, height: HEIGHT });
      }
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props.days, props.field, props.label]);
  return <div class="chart" ref={box} />;
}
