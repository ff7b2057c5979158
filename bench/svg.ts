/** A small SVG of the engine's scale curves: per-call time at 1x and 10x, log scale, one line per operation. */
export function renderSvg(engine: { ops?: { name: string; x1: number; x10: number; ratio: number }[] }): string {
  const ops = engine.ops ?? [];
  const W = 760;
  const rowH = 22;
  const H = 60 + rowH * ops.length;
  const max = Math.max(1, ...ops.flatMap((o) => [o.x1, o.x10]));
  const x = (us: number) => 330 + (Math.log10(Math.max(us, 0.1)) + 1) / (Math.log10(max) + 1.5) * 380;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const rows = ops
    .map((o, i) => {
      const y = 50 + i * rowH;
      const bad = o.ratio > 12;
      return [
        `<text x="8" y="${y + 4}" font-size="12">${esc(o.name)}</text>`,
        `<line x1="${x(o.x1)}" y1="${y}" x2="${x(o.x10)}" y2="${y}" stroke="${bad ? '#c0392b' : '#2c7fb8'}" stroke-width="3"/>`,
        `<circle cx="${x(o.x1)}" cy="${y}" r="4" fill="#999"/>`,
        `<circle cx="${x(o.x10)}" cy="${y}" r="4" fill="${bad ? '#c0392b' : '#2c7fb8'}"/>`,
        `<text x="${Math.max(x(o.x1), x(o.x10)) + 8}" y="${y + 4}" font-size="11">${o.ratio.toFixed(1)}x</text>`,
      ].join('');
    })
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">
<text x="8" y="20" font-size="14" font-weight="bold">Engine operations: µs per call at 1x (grey) and 10x (coloured) workload, log scale; red: grows more than 12x</text>
${rows}
</svg>
`;
}
