/**
 * `PREMISE_LSP_PROFILE=1`: one line per build phase on stderr with its wall
 * time, CPU time (user + system, this process and its worker threads), and the
 * resident and heap memory at its end. Off by default; never changes results.
 */

export interface PhaseTimer {
  /** Ends the current phase under `name` and starts the next. */
  lap(name: string): void;
}

const enabled = () => !!process.env.PREMISE_LSP_PROFILE;

export function phaseTimer(label: string): PhaseTimer {
  if (!enabled()) return { lap() {} };
  let wall = performance.now();
  let cpu = process.cpuUsage();
  return {
    lap(name) {
      const now = performance.now();
      const c = process.cpuUsage(cpu);
      const m = process.memoryUsage();
      const mb = (b: number) => Math.round(b / 2 ** 20);
      process.stderr.write(
        `profile ${label} ${name}: wall ${((now - wall) / 1000).toFixed(2)} s, cpu ${((c.user + c.system) / 1e6).toFixed(2)} s, ` +
          `rss ${mb(m.rss)} MB, heap ${mb(m.heapUsed)} MB, peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB\n`,
      );
      wall = performance.now();
      cpu = process.cpuUsage();
    },
  };
}
