import { Injectable, type PipeTransform } from '@nestjs/common';
import { Plant, PlantQueryError, PlantValidationError, PlantId } from '@plantstore/domain';
import type { FastifyRequest } from 'fastify';
import { JsonBodyPipe } from '../../body/json-body.pipe.js';
import { plantRecordOf } from '../plant-record.js';

/**
 * The request of PUT /plants/{id} → the plant as it should be, in the order of checks: the
 * path's id first (400 40004), then the body as JsonBodyPipe reads it (media type, size, JSON),
 * then its members as the domain reads them (Plant.parseReplacementRecord), every field's
 * problem reported together.
 */
@Injectable()
export class PlantReplacementPipe implements PipeTransform<FastifyRequest, Promise<Plant>> {
  constructor(private readonly json: JsonBodyPipe) {}

  async transform(request: FastifyRequest): Promise<Plant> {
    const id = PlantId.fromCanonical((request.params as { id?: string }).id ?? '', 'id');
    if (!(id instanceof PlantId)) throw new PlantQueryError([id]);
    const parsed = Plant.parseReplacementRecord(id, plantRecordOf(await this.json.transform(request)));
    if (parsed.ok) return parsed.plant;
    throw new PlantValidationError(parsed.violations);
  }
}
