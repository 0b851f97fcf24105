import { RawRequest } from '../../context/raw-request.decorator.js';
import { PlantReplacementPipe } from './plant-replacement.pipe.js';

/** PUT /plants/{id}'s path id and body as the plant it should become; read only after the guards passed. */
export const PlantReplacementBody = () => RawRequest(undefined, PlantReplacementPipe);
