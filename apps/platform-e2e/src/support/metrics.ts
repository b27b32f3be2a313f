/** One line of a Prometheus text exposition: `name{label="value",...} number`. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL_PAIR = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

/** A scrape of an app's /metrics, as a test reads it. */
export class Scrape {
  constructor(
    readonly text: string,
    readonly samples: MetricSample[],
  ) {}

  /** The samples of `name` whose labels include all of `labels`. */
  find(name: string, labels: Record<string, string> = {}): MetricSample[] {
    return this.samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  }

  /** The value of the one sample of `name` with `labels`; undefined when there is none, an error when several match. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    const found = this.find(name, labels);
    if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
    return found[0]?.value;
  }
}

/** GETs `url` (an app's /metrics) over real HTTP and parses the answer. */
export async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const text = await response.text();
  const samples = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = SAMPLE_LINE.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL_PAIR)].map(([, key, value]) => [key, value.replace(/\\(.)/g, '$1')]));
      return { name: match[1], labels, value: Number(match[3]) };
    });
  return new Scrape(text, samples);
}
