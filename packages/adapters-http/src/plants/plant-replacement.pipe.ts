import { Injectable, type PipeTransform } from '@nestjs/common';
import { Plant, PlantQueryError, PlantValidationError, PlantId } from '@plantstore/domain';
import type { FastifyRequest } from 'fastify';
import { JsonBodyPipe } from '../body/json-body.pipe.js';
import { PlantReplacementRequestDto } from './new-plant.request.dto.js';
import { checkedMembers } from './request-members.js';

/**
 * The request of PUT /plants/{id} → the plant as it should be, in the order of checks: the
 * path's id first (400 40004), then the body as JsonBodyPipe reads it (media type, size, JSON),
 * then its members' types (class-validator) and content (Plant.parseReplacement), every field's
 * problem reported together.
 */
@Injectable()
export class PlantReplacementPipe implements PipeTransform<FastifyRequest, Promise<Plant>> {
  constructor(private readonly json: JsonBodyPipe) {}

  async transform(request: FastifyRequest): Promise<Plant> {
    const id = PlantId.fromCanonical((request.params as { id?: string }).id ?? '', 'id');
    if (!(id instanceof PlantId)) throw new PlantQueryError([id]);
    const members = checkedMembers(new PlantReplacementRequestDto(await this.json.transform(request)));
    const parsed = Plant.parseReplacement(id, members);
    if (parsed.ok) return parsed.plant;
    throw new PlantValidationError(parsed.violations);
  }
}
