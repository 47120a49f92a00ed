// A progress bar for long commands: drawn in place on a terminal, silent otherwise (a log
// file or a pipe gets the final summary line only).
import type { Progress } from './generate';

export function progressBar(out: NodeJS.WriteStream, unit: string): Progress {
  if (!out.isTTY) return () => {};
  const started = Date.now();
  let finished = false;
  return (done, total) => {
    if (finished) return;
    const width = 30;
    const frac = total === 0 ? 1 : done / total;
    const filled = Math.round(frac * width);
    const secs = (Date.now() - started) / 1000;
    out.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${Math.round(frac * 100)}% ${done.toLocaleString('en')}/${total.toLocaleString('en')} ${unit} ${secs.toFixed(0)} s`);
    if (done >= total) {
      finished = true;
      out.write('\n');
    }
  };
}
