import request from 'supertest';

/** PUT /plants/{id} with a bearer token (none when undefined), a raw JSON body and optional headers. */
export function putPlant(
  url: string,
  token: string | undefined,
  id: string,
  body: string,
  headers: Record<string, string> = {},
) {
  let call = request(url).put(`/plants/${id}`).set('Content-Type', 'application/json');
  if (token !== undefined) call = call.set('Authorization', `Bearer ${token}`);
  for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
  return call.send(body);
}

/** DELETE /plants/{id} with a bearer token (none when undefined) and optional headers. */
export function deletePlant(url: string, token: string | undefined, id: string, headers: Record<string, string> = {}) {
  let call = request(url).delete(`/plants/${id}`);
  if (token !== undefined) call = call.set('Authorization', `Bearer ${token}`);
  for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
  return call;
}
