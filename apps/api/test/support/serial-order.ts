/** One request to a plant, as a model of the contract answers it. */
export type PlantOperation =
  | { readonly kind: 'put'; readonly name: string }
  | { readonly kind: 'delete' }
  | { readonly kind: 'create'; readonly name: string };

/** What a plant is, in the model: its name while it lives, and its version. */
export interface ModelState {
  readonly name: string | undefined;
  readonly deleted: boolean;
  readonly version: number;
}

/** The answer the contract gives each operation on `state`: `[status, error code or undefined]`, and the state after. */
function apply(state: ModelState, operation: PlantOperation): [answer: string, next: ModelState] {
  if (operation.kind === 'delete') {
    if (state.deleted) return ['204', state];
    return ['204', { name: undefined, deleted: true, version: state.version + 1 }];
  }
  if (operation.kind === 'put') {
    if (state.deleted) return ['410 41001', state];
    if (state.name === operation.name) return ['200', state];
    return ['200', { ...state, name: operation.name, version: state.version + 1 }];
  }
  if (state.deleted) return ['409 40902', state];
  return [state.name === operation.name ? '200' : '409 40901', state];
}

/**
 * Whether some serial order of `operations`, run one at a time from `initial`, gives each of them
 * the answer it got (`answers[i]`, as `"status"` or `"status code"`) and ends in `final`.
 */
export function explainedBySerialOrder(
  initial: ModelState,
  operations: readonly PlantOperation[],
  answers: readonly string[],
  final: ModelState,
): boolean {
  const search = (state: ModelState, left: readonly number[]): boolean => {
    if (left.length === 0)
      return state.deleted === final.deleted && state.name === final.name && state.version === final.version;
    return left.some((index) => {
      const [answer, next] = apply(state, operations[index]!);
      return (
        answer === answers[index] &&
        search(
          next,
          left.filter((other) => other !== index),
        )
      );
    });
  };
  return search(
    initial,
    operations.map((_, index) => index),
  );
}
