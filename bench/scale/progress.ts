/** A one-line progress bar on stderr: done/total, the rate and the time left, redrawn at most every 250 ms. */
export interface Progress {
  tick(done: number): void;
  finish(): void;
}

const WIDTH = 30;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m > 0 ? `${m}m${String(s).padStart(2, '0')}s` : `${s}s`;
}

export function progressBar(label: string, total: number): Progress {
  const started = performance.now();
  let drawn = 0;
  let last = 0;
  const draw = (done: number) => {
    const elapsed = (performance.now() - started) / 1000;
    const rate = done / Math.max(elapsed, 1e-3);
    const filled = Math.round((done / total) * WIDTH);
    const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done.toLocaleString('en')}/${total.toLocaleString('en')} ${Math.round(rate).toLocaleString('en')}/s, ${duration(elapsed)} elapsed, ${duration((total - done) / rate)} left`;
    process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`);
  };
  return {
    tick(done) {
      last = done;
      const now = performance.now();
      // Not a TTY (a log file): a line every 5 s instead of a redraw.
      if (now - drawn < (process.stderr.isTTY ? 250 : 5000)) return;
      drawn = now;
      draw(done);
    },
    finish() {
      draw(last);
      if (process.stderr.isTTY) process.stderr.write('\n');
    },
  };
}
