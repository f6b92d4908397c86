/** A manual metric reader for the tracing tests, and the data points of one instrument. */
import { AggregationTemporality, MetricReader, type ResourceMetrics } from "@opentelemetry/sdk-metrics";

export class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** The data points `reader` has collected for the instrument `name`. */
export async function dataPoints(reader: MetricReader, name: string): Promise<Array<{ attributes: Record<string, unknown>; value: unknown }>> {
  const { resourceMetrics }: { resourceMetrics: ResourceMetrics } = await reader.collect();
  const found = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return (found?.dataPoints ?? []).map((d) => ({ attributes: d.attributes, value: d.value }));
}
