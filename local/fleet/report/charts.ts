// The report's browser-side script: builds the four chart.js line charts of every run from the embedded
// samples. `animation: false`, so what a screenshot captures is the final chart.
export const chartScript = `
(function () {
  const runs = JSON.parse(document.getElementById('fleet-data').textContent);
  const palette = ['#1f77b4','#d62728','#2ca02c','#ff7f0e','#9467bd','#8c564b','#e377c2','#7f7f7f','#bcbd22','#17becf'];
  const series = (samples, pick) => samples.map((s) => pick(s));
  const keysOf = (samples, field) => [...new Set(samples.flatMap((s) => Object.keys(s[field])))].sort();
  function datasets(kind, samples) {
    if (kind === 'cost') return [
      { label: 'cost $/h', data: series(samples, (s) => s.costPerHour) },
      { label: 'LP lower bound $/h', data: series(samples, (s) => s.lowerBoundPerHour), borderDash: [6, 4] },
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
  window.kraftsmanCharts = [];
  document.querySelectorAll('canvas[data-chart]').forEach((canvas) => {
    const kind = canvas.dataset.chart;
    const samples = runs[Number(canvas.dataset.run)].samples;
    const sets = datasets(kind, samples).map((d, i) => ({ borderColor: palette[i % palette.length],
      backgroundColor: palette[i % palette.length], pointRadius: 0, borderWidth: 2, ...d }));
    const chart = new Chart(canvas, { type: 'line', data: { labels: samples.map((s) => s.minute), datasets: sets },
      options: { animation: false, responsive: true, maintainAspectRatio: false,
        plugins: { title: { display: true, text: titles[kind] }, legend: { position: 'bottom', labels: { boxWidth: 10 } } },
        scales: { x: { title: { display: true, text: 'simulated minute' } } } } });
    window.kraftsmanCharts.push({ kind, points: sets.reduce((n, d) => n + d.data.length, 0), chart });
  });
})();
`;
