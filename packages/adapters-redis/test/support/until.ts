/** Polls `condition` until it holds or 10 s have passed, and says which. */
export async function until(condition: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
