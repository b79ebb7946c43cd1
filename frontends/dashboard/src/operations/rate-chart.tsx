// Events per second per type over the last ten minutes, drawn as inline SVG lines (no chart
// library: the console is one lazy chunk and this is forty lines). The picture is for the eye; the
// same figures are in the legend (now and peak per type) and in a table under 'Show the figures'.
import type { RateSeries } from './feed-model';
import { perSecond } from './format';

/** Okabe–Ito: told apart with the common colour-vision deficiencies; 'other' is grey. */
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#B8860B', '#56B4E9'];
const OTHER_COLOUR = '#6b7687';
const WIDTH = 600;
const HEIGHT = 140;

const colourOf = (series: RateSeries, index: number) =>
  series.type === 'other' ? OTHER_COLOUR : COLOURS[index % COLOURS.length];

export function RateChart({
  series,
  bucketSeconds,
  bucketStarts,
}: {
  series: RateSeries[];
  bucketSeconds: number;
  bucketStarts: string[];
}) {
  const points = bucketStarts.length;
  const minutes = Math.round((points * bucketSeconds) / 60);
  if (series.length === 0 || points === 0)
    return <p className="ui-muted">No events in the last {minutes || 10} minutes.</p>;
  const top = Math.max(...series.map((s) => s.peak), 0.1);
  const x = (i: number) => (points === 1 ? WIDTH : (i / (points - 1)) * WIDTH);
  const y = (v: number) => HEIGHT - (v / top) * (HEIGHT - 4) - 2;
  const summary = series
    .map((s) => `${s.type} ${perSecond(s.latest)} now, peak ${perSecond(s.peak)}`)
    .join('; ');
  return (
    <figure className="ops-chart">
      <div className="ops-chart__plot">
        <span className="ops-chart__max" aria-hidden="true">
          {perSecond(top)}
        </span>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`Events per second by type over the last ${minutes} minutes: ${summary}`}
        >
          {[0.25, 0.5, 0.75].map((f) => (
            <line key={f} x1={0} x2={WIDTH} y1={HEIGHT * f} y2={HEIGHT * f} className="ops-chart__grid" />
          ))}
          {series.map((s, index) => (
            <polyline
              key={s.type}
              points={s.perSecond.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}
              fill="none"
              stroke={colourOf(s, index)}
              strokeWidth={2}
              vectorEffect="non-scaling-stroke"
              strokeLinejoin="round"
            />
          ))}
        </svg>
        <div className="ops-chart__axis" aria-hidden="true">
          <span>{minutes} min ago</span>
          <span>now</span>
        </div>
      </div>
      <figcaption>
        <ul className="ops-chart__legend">
          {series.map((s, index) => (
            <li key={s.type}>
              <span
                className="ops-chart__swatch"
                style={{ background: colourOf(s, index) }}
                aria-hidden="true"
              />
              <span className="ops-mono">{s.type}</span>
              <span className="ui-muted">
                {perSecond(s.latest)} now · peak {perSecond(s.peak)}
              </span>
            </li>
          ))}
        </ul>
        <details className="ops-chart__figures">
          <summary>Show the figures</summary>
          <div className="ops-scroll" tabIndex={0} role="region" aria-label="Events per second, by minute">
            <table className="ops-table">
              <caption className="ui-visually-hidden">
                Events per second by type, per {bucketSeconds} seconds
              </caption>
              <thead>
                <tr>
                  <th scope="col">From</th>
                  {series.map((s) => (
                    <th key={s.type} scope="col">
                      {s.type}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {bucketStarts
                  .map((at, i) => ({ at, i }))
                  .reverse()
                  .map(({ at, i }) => (
                    <tr key={at}>
                      <th scope="row">{new Date(at).toLocaleTimeString('en-GB', { hour12: false })}</th>
                      {series.map((s) => (
                        <td key={s.type}>{perSecond(s.perSecond[i] ?? 0)}</td>
                      ))}
                    </tr>
                  ))}
              </tbody>
            </table>
          </div>
        </details>
      </figcaption>
    </figure>
  );
}
