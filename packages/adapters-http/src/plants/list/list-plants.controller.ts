import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FollowChanges, ListPlants, PlantPageQuery } from '@plantstore/domain';
import type { FastifyReply } from 'fastify';
import { RequireScope } from '../../auth/require-scope.decorator.js';
import { FOLLOW_CHANGES, LIST_PLANTS } from '../../ports/di-tokens.js';
import { JSON_UTF8 } from '../plant-representation.js';
import { FEED_CURSOR_HEADER, nextLink, plantListBody } from './plant-list-representation.js';
import { PlantPageQueryParam } from './plant-page-query.decorator.js';

/** GET /plants (docs/http-api.md#get-plants). */
@Controller('plants')
export class ListPlantsController {
  constructor(
    @Inject(LIST_PLANTS) private readonly listPlants: ListPlants,
    @Inject(FOLLOW_CHANGES) private readonly followChanges: FollowChanges,
  ) {}

  /** Ids in the list are exact JSON numbers (plant-list-representation.ts). */
  @Get()
  @RequireScope('plants:read')
  async list(@PlantPageQueryParam() query: PlantPageQuery, @Res() reply: FastifyReply): Promise<void> {
    // Before the page, not beside it: a change the page misses must come after the cursor.
    const cursor = await this.followChanges.cursorOfNow();
    const page = await this.listPlants.execute(query);
    void reply.header(FEED_CURSOR_HEADER, cursor);
    if (page.next !== undefined) void reply.header('link', nextLink(page.next));
    await reply.code(200).header('content-type', JSON_UTF8).send(plantListBody(page.plants));
  }
}
