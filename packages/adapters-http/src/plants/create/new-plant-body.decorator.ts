import { JsonBodyPipe } from '../../body/json-body.pipe.js';
import { RawRequest } from '../../context/raw-request.decorator.js';
import { NewPlantPipe } from './new-plant.pipe.js';

/** The body of POST /plants as a validated domain Plant; read only after the guards passed. */
export const NewPlantBody = () => RawRequest(undefined, JsonBodyPipe, NewPlantPipe);
