/** A request to a running reference's control interface, as its HTTP tests send them. */
export async function controlRequest(
  reference: { controlUrl: string; controlToken: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(reference.controlUrl + path, {
    method,
    headers: { authorization: `Bearer ${reference.controlToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}
