import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { JsonBodyPipe } from '../body/json-body.pipe.js';
import { requestOf } from '../context/request-of.js';
import { NewPlantPipe } from './new-plant.pipe.js';
import { PlantReplacementPipe } from './plant-replacement.pipe.js';

const RawRequest = createParamDecorator((_data: unknown, context: ExecutionContext) => requestOf<unknown>(context));

/** The body of POST /plants as a validated domain Plant; read only after the guards passed. */
export const NewPlantBody = () => RawRequest(undefined, JsonBodyPipe, NewPlantPipe);

/** PUT /plants/{id}'s path id and body as the plant it should become; read only after the guards passed. */
export const PlantReplacementBody = () => RawRequest(undefined, PlantReplacementPipe);
