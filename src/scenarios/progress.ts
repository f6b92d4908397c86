/**
 * A progress bar for the terminal: one line redrawn in place, at most every 100 ms. Quiet when
 * the output is not a terminal, so logs and pipes get only the final table.
 */

/** A progress display. */
export interface Progress {
  /** One more run is done; `label` says which. */
  tick(label: string): void;
  /** Clears the bar. */
  done(): void;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  total: number;
  /** Where the bar is drawn (standard error). */
  write: (text: string) => void;
  /** Whether that is a terminal; the bar is drawn only then. */
  isTTY: boolean;
  /** Width of the bar in characters. Default 30. */
  width?: number;
  /** Clock, for tests. */
  now?: () => number;
}

const QUIET: Progress = { tick() {}, done() {} };

/** The bar line for `done` of `total`. */
export function progressLine(done: number, total: number, label: string, width = 30): string {
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(share * width);
  const bar = "█".repeat(filled) + "░".repeat(width - filled);
  const text = label.length > 40 ? `${label.slice(0, 39)}…` : label;
  return `${bar} ${String(Math.round(share * 100)).padStart(3)}% ${done}/${total} ${text}`;
}

/** Makes a progress bar, or a quiet one when the output is not a terminal. */
export function createProgress(options: ProgressOptions): Progress {
  if (!options.isTTY) return QUIET;
  const now = options.now ?? Date.now;
  let count = 0;
  let last = 0;
  let shown = false;
  return {
    tick(label) {
      count++;
      const t = now();
      if (count < options.total && t - last < 100) return;
      last = t;
      shown = true;
      options.write(`\r\x1b[2K${progressLine(count, options.total, label, options.width)}`);
    },
    done() {
      if (shown) options.write("\r\x1b[2K");
    },
  };
}
