/**
 * The value of `name` in Prometheus exposition text: the sum of its samples whose labels include `labels` (so one
 * sample when they name all of its labels), 0 while there is none (a counter not counted yet).
 */
export function metricSample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have: string[] = (m[2] ?? '').match(/[a-zA-Z_]\w*="(?:[^"\\]|\\.)*"/g) ?? [];
    if (wanted.every((w) => have.includes(w))) sum += Number(m[3]);
  }
  return sum;
}

/** The exposition text of the service at `url` (a listening TestApp or a ServiceProcess). */
export async function scrapeMetrics(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`);
  if (!res.ok) throw new Error(`GET ${url}/metrics answered ${res.status}`);
  return res.text();
}
