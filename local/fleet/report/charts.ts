// The report's browser-side script: builds the four chart.js line charts of every run from the embedded
// samples. `animation: false`, so what a screenshot captures is the final chart.
export const chartScript = `
(function () {
  const runs = JSON.parse(document.getElementById('fleet-data').textContent);
  const palette = ['#1f77b4','#d62728','#2ca02c','#ff7f0e','#9467bd','#8c564b','#e377c2','#7f7f7f','#bcbd22','#17becf'];
  const series = (samples, pick) => samples.map((s) => pick(s));
  const keysOf = (samples, field) => [...new Set(samples.flatMap((s) => Object.keys(s[field])))].sort();
  function datasets(kind, samples, markers) {
    if (kind === 'cost') return [
      { label: 'cost $/h', data: series(samples, (s) => s.costPerHour) },
      { label: 'LP lower bound $/h', data: series(samples, (s) => s.lowerBoundPerHour), borderDash: [6, 4] },
      // a finished command: a triangle on the cost line at the minute it ended (no line between them)
      { label: 'command finished', data: samples.map((s) => (markers.some((m) => m.minute === s.minute) ? s.costPerHour : null)),
        showLine: false, pointStyle: 'triangle', pointRadius: 7, marker: true },
    ];
    if (kind === 'nodes') return [
      ...keysOf(samples, 'nodesByCloud').map((k) => ({ label: 'cloud ' + k, data: series(samples, (s) => s.nodesByCloud[k] || 0) })),
      ...keysOf(samples, 'nodesByPool').map((k) => ({ label: 'pool ' + k, data: series(samples, (s) => s.nodesByPool[k] || 0), borderDash: [3, 3] })),
    ];
    if (kind === 'pending') return [{ label: 'pending pods', data: series(samples, (s) => s.pending) }];
    return [{ label: 'walk coverage %', data: series(samples, (s) => (s.coverage === null ? null : Math.round(s.coverage * 1000) / 10)) }];
  }
  const titles = { cost: 'Fleet cost per hour vs the bin-packing lower bound', nodes: 'Nodes per cloud and NodePool',
    pending: 'Pending pods', coverage: 'Walk coverage (this cycle)' };
  // Side by side (--compare), each kind of chart shares its y-scale across the runs, so heights compare.
  const shared = {};
  runs.forEach((run) => ['cost', 'nodes', 'pending', 'coverage'].forEach((kind) => {
    const values = datasets(kind, run.samples, run.markers).flatMap((d) => d.data).filter((v) => typeof v === 'number');
    shared[kind] = Math.max(shared[kind] ?? 0, ...values);
  }));
  window.kraftsmanCharts = [];
  document.querySelectorAll('canvas[data-chart]').forEach((canvas) => {
    const kind = canvas.dataset.chart;
    const run = runs[Number(canvas.dataset.run)];
    const samples = run.samples;
    const sets = datasets(kind, samples, run.markers).map((d, i) => ({ borderColor: palette[i % palette.length],
      backgroundColor: palette[i % palette.length], pointRadius: 0, borderWidth: 2, ...d }));
    const chart = new Chart(canvas, { type: 'line', data: { labels: samples.map((s) => s.minute), datasets: sets },
      options: { animation: false, responsive: true, maintainAspectRatio: false,
        plugins: { title: { display: true, text: titles[kind] }, legend: { position: 'bottom', labels: { boxWidth: 10 } } },
        scales: { x: { title: { display: true, text: 'simulated minute' } }, y: { beginAtZero: kind !== 'cost', ...(runs.length > 1 && shared[kind] > 0 ? { max: Math.ceil(shared[kind] * 1.05) } : {}) } } } });
    const lines = sets.filter((d) => !d.marker);
    window.kraftsmanCharts.push({ kind, points: lines.reduce((n, d) => n + d.data.length, 0),
      markers: sets.filter((d) => d.marker).reduce((n, d) => n + d.data.filter((v) => v !== null).length, 0), chart });
  });
})();
`;
