/** A controller's OpenAPI decorators, each list written as it would stand above the class or the method. */
export interface ControllerDescription<T> {
  readonly controller?: readonly ClassDecorator[];
  /** The route handlers, in the order the class declares them. */
  readonly methods?: { readonly [K in keyof T & string]?: readonly MethodDecorator[] };
}

/**
 * Applies OpenAPI decorators to a controller after the fact, as TypeScript applies the ones
 * written on it: each method's list bottom first, the methods in the order given, then the
 * class's list bottom first. The controllers carry no OpenAPI decorator of their own, so the
 * server loads @nestjs/swagger only when the document is first asked for: the describers
 * (`*.openapi.ts`) call this from the document's builder, once.
 */
export function describeController<T extends object>(
  controller: abstract new (...args: never[]) => T,
  { controller: classDecorators = [], methods = {} }: ControllerDescription<T>,
): void {
  const prototype = controller.prototype as object;
  for (const [name, decorators] of Object.entries<readonly MethodDecorator[] | undefined>(methods)) {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
    if (typeof descriptor?.value !== 'function') throw new Error(`${controller.name} has no method ${name}`);
    let current: PropertyDescriptor = descriptor;
    for (const decorate of [...(decorators ?? [])].reverse()) current = decorate(prototype, name, current) ?? current;
    if (current !== descriptor) Object.defineProperty(prototype, name, current);
  }
  for (const decorate of [...classDecorators].reverse())
    if ((decorate(controller) ?? controller) !== controller)
      throw new Error(`a class decorator replaced ${controller.name}, which cannot be done after the fact`);
}
