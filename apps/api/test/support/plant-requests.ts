import request from 'supertest';

export const JSON_UTF8 = 'application/json; charset=utf-8';

/** POST /plants with a bearer token and a JSON body given as raw text (ids stay exact). */
export function postPlant(url: string, token: string | undefined, body: string) {
  const call = request(url).post('/plants').set('Content-Type', 'application/json');
  return token === undefined ? call.send(body) : call.set('Authorization', `Bearer ${token}`).send(body);
}
