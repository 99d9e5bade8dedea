// One metric's samples from a gateway's /metrics (Prometheus text), by their labels as written
// between the braces ("" for a sample without labels): tests read counters without parsing the
// whole format themselves.

export async function metricSamples(gatewayUrl: string, name: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text();
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] === name) samples.set(match[2] ?? "", Number(match[3]));
  }
  return samples;
}
