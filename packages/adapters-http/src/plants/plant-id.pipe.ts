import { Injectable, type PipeTransform } from '@nestjs/common';
import { PlantId, PlantQueryError } from '@plantstore/domain';

/** The `{id}` of a path as a PlantId, under the domain's canonical-decimal rule (400 40004 otherwise). */
@Injectable()
export class PlantIdPipe implements PipeTransform<string, PlantId> {
  transform(text: string): PlantId {
    const id = PlantId.fromCanonical(text, 'id');
    if (id instanceof PlantId) return id;
    throw new PlantQueryError([id]);
  }
}
