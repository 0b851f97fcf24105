// The FLOOR of `pnpm bench` (BENCH_ONLY=floor): the request path the project must keep
// (NestJS on Fastify, a global @nestjs/passport guard with passport-http-bearer, the body read
// into a Plant by the domain's rules in a pipe, as the project's own pipe does) and nothing else: no database, no logger, no
// metrics, no request context. The token is checked against one SHA-256 hash held in memory;
// the handler answers the 200 body without storing anything. So the CPU it spends per create
// is what the mandated stack costs before the project does any work of its own: no server that
// keeps that stack in the request path can spend less. Not a product: a yardstick.
//
// Env: HOST, PORT, BASELINE_TOKEN (the plain token to accept).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const fromApi = createRequire(new URL('../apps/api/package.json', import.meta.url));
const fromHttp = createRequire(new URL('../packages/adapters-http/package.json', import.meta.url));
const load = (require, name) => import(pathToFileURL(require.resolve(name)).href);

fromApi('reflect-metadata');
const common = await load(fromApi, '@nestjs/common');
const { NestFactory, APP_GUARD } = await load(fromApi, '@nestjs/core');
const { FastifyAdapter } = await load(fromApi, '@nestjs/platform-fastify');
const { AuthGuard, PassportModule, PassportStrategy } = await load(fromHttp, '@nestjs/passport');
const { Strategy } = fromHttp('passport-http-bearer');
const { Plant } = await load(fromHttp, '@plantstore/domain');

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const TOKEN_HASH = sha256(process.env.BASELINE_TOKEN ?? '');

// Decorators applied by hand: this file is plain JavaScript, run without a compiler.
const decorate = (decorators, target, key) => {
  const descriptor = key === undefined ? undefined : Object.getOwnPropertyDescriptor(target, key);
  for (const d of decorators.reverse()) d(target, key, descriptor);
};

// Fastify's own JSON.parse reads the body here: a number is a Number, and its text is String's.
const numberLiteral = (value) => (typeof value === 'number' ? String(value) : undefined);

// Like the project's pipe, this one hands the body to the domain, which checks its shape and content at once.
class NewPlantPipe {
  transform(body) {
    const parsed = Plant.parseRecord({ fields: body ?? {}, numberLiteral });
    if (!parsed.ok) throw new common.BadRequestException(parsed.violations.map((v) => v.field).join(', '));
    return parsed.plant;
  }
}

class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  validate(token) {
    if (sha256(token) !== TOKEN_HASH) throw new common.UnauthorizedException();
    return { tokenId: 'floor', scopes: ['plants:write'] };
  }
}
common.Injectable()(BearerStrategy);

class BearerGuard extends AuthGuard('bearer') {}
common.Injectable()(BearerGuard);

class PlantsController {
  create(plant) {
    return plant.tag === undefined ? { name: plant.name.value } : { name: plant.name.value, tag: plant.tag.value };
  }
}
Reflect.defineMetadata('design:paramtypes', [Object], PlantsController.prototype, 'create');
common.Body(new NewPlantPipe())(PlantsController.prototype, 'create', 0);
decorate([common.Post(), common.HttpCode(200)], PlantsController.prototype, 'create');
common.Controller('plants')(PlantsController);

class FloorModule {}
common.Module({
  imports: [PassportModule],
  controllers: [PlantsController],
  providers: [BearerStrategy, { provide: APP_GUARD, useClass: BearerGuard }],
})(FloorModule);

const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
await app.listen({ port: Number(process.env.PORT || 3000), host: process.env.HOST || '127.0.0.1' });
// Stop as the project does on SIGTERM (close, exit 0), so the bench can tell a clean stop from a crash.
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
