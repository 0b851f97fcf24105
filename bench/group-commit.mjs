// The baselines' group commit (baseline-server.mjs, BASELINE_COMMIT=group).

/**
 * Group commit for the `group` mode: creates submitted during one event-loop turn are flushed
 * together at the end of it (setImmediate), at most `maxFlushes` flushes in flight; creates that
 * arrive while that many are in flight wait and go together into the next one. Each create's
 * promise settles only after the flush that holds it.
 */
export function groupCommit(flush, maxFlushes) {
  let pending = [];
  let scheduled = false;
  let inFlight = 0;
  const pump = () => {
    scheduled = false;
    if (pending.length === 0 || inFlight >= maxFlushes) return;
    const batch = pending;
    pending = [];
    inFlight++;
    flush(batch.map((w) => w.plant))
      .then(
        (outcomes) => batch.forEach((w, i) => w.resolve(outcomes[i])),
        (error) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        inFlight--;
        schedule();
      });
  };
  const schedule = () => {
    if (scheduled || pending.length === 0) return;
    scheduled = true;
    setImmediate(pump);
  };
  return (plant) =>
    new Promise((resolve, reject) => {
      pending.push({ plant, resolve, reject });
      schedule();
    });
}
