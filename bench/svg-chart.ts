import { mkdirSync, writeFileSync } from "node:fs";

/** One bar series (a legend entry): a value per category, `undefined` where it was not measured. */
export type Series = { name: string; values: ReadonlyArray<number | undefined> };

/** One grouped bar chart: categories along x, one bar per series in each group. */
export type Panel = {
  /** Panel heading (omit for a single-panel chart). */
  heading?: string;
  categories: readonly string[];
  series: readonly Series[];
  /** Y axis label, e.g. `request bytes (log scale)`. */
  yLabel: string;
  xLabel: string;
  /** Log scale, for data spanning orders of magnitude. */
  log?: boolean;
  /** Fixed top of a linear axis (e.g. 100 for percentages); otherwise from the data. */
  max?: number;
  /** Text printed on a bar. */
  format: (value: number) => string;
};

/** A chart: a title, a legend shared by its panels, and the panels side by side. */
export type Chart = { title: string; subtitle?: string; panels: readonly Panel[] };

const COLOURS = ["#2f6fb0", "#e08a2c", "#4f9a4a", "#b4463f", "#7b5ea7"];
const PANEL_WIDTH = 620;
const PLOT_HEIGHT = 300;
const MARGIN = { left: 78, right: 18, top: 96, bottom: 74 };
const FONT = 'font-family="Helvetica, Arial, sans-serif"';
/** Approximate width of one character of the 10 px value labels. */
const LABEL_CHAR_WIDTH = 5.8;

/** Renders `chart` as a standalone SVG document (hand-written: axes, ticks, legend, values on bars). */
export function chartSvg(chart: Chart): string {
  const width = chart.panels.length * PANEL_WIDTH;
  const height = MARGIN.top + PLOT_HEIGHT + MARGIN.bottom;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    text(width / 2, 24, chart.title, 'font-size="17" font-weight="bold" text-anchor="middle"'),
  ];
  if (chart.subtitle)
    parts.push(text(width / 2, 43, chart.subtitle, 'font-size="12" fill="#555" text-anchor="middle"'));
  const names = chart.panels[0]?.series.map((series) => series.name) ?? [];
  parts.push(legend(names, width));
  chart.panels.forEach((panel, index) => {
    parts.push(panelSvg(panel, index * PANEL_WIDTH));
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** Writes `chart` to `bench/results/<name>.svg`. */
export function writeChart(name: string, chart: Chart): void {
  const directory = new URL("./results/", import.meta.url);
  mkdirSync(directory, { recursive: true });
  writeFileSync(new URL(`${name}.svg`, directory), chartSvg(chart));
}

function legend(names: readonly string[], width: number): string {
  const itemWidths = names.map((name) => 22 + name.length * 7 + 18);
  let x = (width - itemWidths.reduce((sum, item) => sum + item, 0)) / 2;
  const items = names.map((name, index) => {
    const item = [
      `<rect x="${x}" y="54" width="14" height="14" fill="${COLOURS[index % COLOURS.length]}"/>`,
      text(x + 20, 66, name, 'font-size="12"'),
    ].join("");
    x += itemWidths[index]!;
    return item;
  });
  return items.join("\n");
}

function panelSvg(panel: Panel, offsetX: number): string {
  const plotLeft = offsetX + MARGIN.left;
  const plotWidth = PANEL_WIDTH - MARGIN.left - MARGIN.right;
  const plotTop = MARGIN.top;
  const plotBottom = plotTop + PLOT_HEIGHT;
  const scale = yScale(panel);
  const y = (value: number) => plotBottom - scale.position(value) * PLOT_HEIGHT;
  const parts: string[] = [];
  if (panel.heading)
    parts.push(
      text(plotLeft + plotWidth / 2, plotTop - 12, panel.heading, 'font-size="13" text-anchor="middle"'),
    );
  for (const tick of scale.ticks) {
    const at = y(tick);
    parts.push(
      `<line x1="${plotLeft}" y1="${at}" x2="${plotLeft + plotWidth}" y2="${at}" stroke="#e3e3e3"/>`,
    );
    parts.push(
      text(plotLeft - 6, at + 4, scale.tickLabel(tick), 'font-size="11" text-anchor="end" fill="#444"'),
    );
  }
  const groupWidth = plotWidth / Math.max(1, panel.categories.length);
  const barWidth = (groupWidth * 0.8) / Math.max(1, panel.series.length);
  panel.categories.forEach((category, group) => {
    const groupLeft = plotLeft + group * groupWidth + groupWidth * 0.1;
    panel.series.forEach((series, index) => {
      const value = series.values[group];
      if (value === undefined) return;
      const left = groupLeft + index * barWidth;
      const top = y(value);
      const colour = COLOURS[index % COLOURS.length];
      parts.push(
        `<rect x="${fixed(left + 1)}" y="${fixed(top)}" width="${fixed(barWidth - 2)}" height="${fixed(plotBottom - top)}" fill="${colour}"><title>${escapeXml(`${series.name}, ${category}: ${panel.format(value)}`)}</title></rect>`,
      );
      const label = panel.format(value);
      const centre = left + barWidth / 2;
      if (label.length * LABEL_CHAR_WIDTH <= barWidth + 2) {
        parts.push(text(centre, top - 4, label, 'font-size="10" text-anchor="middle"'));
      } else {
        parts.push(
          text(
            0,
            0,
            label,
            `font-size="10" transform="translate(${fixed(centre + 3.5)} ${fixed(top - 4)}) rotate(-90)"`,
          ),
        );
      }
    });
    parts.push(
      text(groupLeft + groupWidth * 0.4, plotBottom + 18, category, 'font-size="12" text-anchor="middle"'),
    );
  });
  parts.push(`<line x1="${plotLeft}" y1="${plotTop}" x2="${plotLeft}" y2="${plotBottom}" stroke="#333"/>`);
  parts.push(
    `<line x1="${plotLeft}" y1="${plotBottom}" x2="${plotLeft + plotWidth}" y2="${plotBottom}" stroke="#333"/>`,
  );
  parts.push(
    text(plotLeft + plotWidth / 2, plotBottom + 44, panel.xLabel, 'font-size="12" text-anchor="middle"'),
  );
  const labelY = plotTop + PLOT_HEIGHT / 2;
  parts.push(
    text(
      0,
      0,
      panel.yLabel,
      `font-size="12" text-anchor="middle" transform="translate(${offsetX + 18} ${labelY}) rotate(-90)"`,
    ),
  );
  return parts.join("\n");
}

type Scale = { ticks: number[]; position(value: number): number; tickLabel(value: number): string };

function yScale(panel: Panel): Scale {
  const values = panel.series.flatMap((series) => series.values.filter((value) => value !== undefined));
  if (panel.log) {
    const positive = values.filter((value) => value > 0);
    const low = Math.floor(Math.log10(Math.min(...positive)));
    // Headroom above the tallest bar for its label.
    const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(...positive, 1) * 1.8)));
    const ticks = Array.from({ length: high - low + 1 }, (_, index) => 10 ** (low + index));
    return {
      ticks,
      position: (value) => (Math.log10(Math.max(value, 10 ** low)) - low) / (high - low),
      tickLabel: compactNumber,
    };
  }
  const top = panel.max ?? niceCeiling(Math.max(...values, 1) * 1.1);
  const step = top / 5;
  return {
    ticks: Array.from({ length: 6 }, (_, index) => index * step),
    position: (value) => Math.max(0, value) / top,
    tickLabel: (value) => compactNumber(Number(value.toPrecision(3))),
  };
}

function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const factor of [1, 2, 2.5, 5, 10]) if (factor * power >= value) return factor * power;
  return 10 * power;
}

/** `0.001`, `0.1`, `10`, `1k`, `100k`, `1M`. */
export function compactNumber(value: number): string {
  if (value >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (value >= 1e3) return `${Number((value / 1e3).toPrecision(3))}k`;
  return `${Number(value.toPrecision(3))}`;
}

function text(x: number, y: number, content: string, attributes: string): string {
  return `<text x="${fixed(x)}" y="${fixed(y)}" ${FONT} ${attributes}>${escapeXml(content)}</text>`;
}

function fixed(value: number): string {
  return Number(value.toFixed(2)).toString();
}

function escapeXml(content: string): string {
  return content.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
