import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteMetadata } from '../../src/context/route-metadata.js';

const ROLE = 'test:role';

class BaseController {
  handle(): void {}
}
class AdminController extends BaseController {}
class OpenController extends BaseController {}
SetMetadata(ROLE, 'admin')(AdminController);
SetMetadata(ROLE, 'open')(OpenController);

class OwnController {
  handle(): void {}
}
SetMetadata(ROLE, 'controller')(OwnController);
SetMetadata(ROLE, 'handler')(
  OwnController.prototype,
  'handle',
  Object.getOwnPropertyDescriptor(OwnController.prototype, 'handle')!,
);

function contextOf(controller: new () => { handle(): void }): ExecutionContext {
  return { getHandler: () => controller.prototype.handle, getClass: () => controller } as unknown as ExecutionContext;
}

describe('route metadata read once per route', () => {
  it('answers as Reflector does: the handler first, else its controller', () => {
    const role = new RouteMetadata<string | undefined>(new Reflector(), ROLE);
    expect(role.of(contextOf(OwnController))).toBe('handler');
    expect(role.of(contextOf(AdminController))).toBe('admin');
  });

  it('keeps apart two controllers that share one inherited handler, however often each is asked', () => {
    const role = new RouteMetadata<string | undefined>(new Reflector(), ROLE);
    const answers = [AdminController, OpenController, AdminController, OpenController].map((c) =>
      role.of(contextOf(c)),
    );
    expect(answers).toEqual(['admin', 'open', 'admin', 'open']);
  });
});
