import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

interface Remembered<Value> {
  readonly controller: unknown;
  readonly value: Value;
}

/**
 * A route's metadata (`@Public()`, `@RequireScope()`), read with `Reflector.getAllAndOverride`
 * (the handler's, else its controller's) once per route rather than on every request: it is
 * fixed once the app is built, and reflect-metadata walks prototype chains for each read.
 */
export class RouteMetadata<Value> {
  private readonly byHandler = new WeakMap<object, Remembered<Value>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly key: string | symbol,
  ) {}

  of(context: ExecutionContext): Value {
    const handler = context.getHandler();
    const controller = context.getClass();
    const remembered = this.byHandler.get(handler);
    // One handler function could serve two controllers (a subclass inherits it): keyed by both.
    if (remembered?.controller === controller) return remembered.value;
    const value = this.reflector.getAllAndOverride<Value>(this.key, [handler, controller]);
    this.byHandler.set(handler, { controller, value });
    return value;
  }
}
