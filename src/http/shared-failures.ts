type Response = { content?: Record<string, { schema?: unknown }> } | { $ref: string };
type Paths = Record<string, Record<string, { responses?: Record<string, Response> }>>;

/** Names for what a document shares, one per distinct JSON text: `Failure400`, a second of that status `Failure400_2`. */
function namer(prefix: string) {
  const names = new Map<string, string>();
  const taken = new Map<string, number>();
  return (status: string, text: string): { name: string; isNew: boolean } => {
    const known = names.get(text);
    if (known) return { name: known, isNew: false };
    const count = (taken.get(status) ?? 0) + 1;
    taken.set(status, count);
    const name = count === 1 ? `${prefix}${status}` : `${prefix}${status}_${count}`;
    names.set(text, name);
    return { name, isNew: true };
  };
}

/** Every failure response of the document, with its status. */
function* failureResponses(paths: Paths) {
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const responses = operation.responses ?? {};
      for (const status of Object.keys(responses)) if (Number(status) >= 400) yield { responses, status };
    }
  }
}

/**
 * The document with its failures written once, in its components, and referred to where they
 * answer: each status's envelope schema (`schemas.Failure400`), and each failure response that
 * several operations give alike (`responses.Failure408`). Written out in each operation they made
 * most of the document, which the reference page reads node by node before it draws anything.
 */
export function shareFailures<T extends { paths?: unknown; components?: { schemas?: object; responses?: object } }>(
  document: T,
): T {
  const paths = (document.paths ?? {}) as Paths;
  const schemas: Record<string, unknown> = {};
  const schemaName = namer('Failure');
  for (const { responses, status } of failureResponses(paths)) {
    const media = (responses[status] as { content?: Record<string, { schema?: unknown }> }).content?.[
      'application/json'
    ];
    if (!media?.schema) continue;
    const { name, isNew } = schemaName(status, JSON.stringify(media.schema));
    if (isNew) schemas[name] = media.schema;
    media.schema = { $ref: `#/components/schemas/${name}` };
  }
  const uses = new Map<string, number>();
  for (const { responses, status } of failureResponses(paths)) {
    const text = status + JSON.stringify(responses[status]);
    uses.set(text, (uses.get(text) ?? 0) + 1);
  }
  const shared: Record<string, unknown> = {};
  const responseName = namer('Failure');
  for (const { responses, status } of failureResponses(paths)) {
    const json = JSON.stringify(responses[status]);
    if (uses.get(status + json)! < 2) continue;
    const { name, isNew } = responseName(status, json);
    if (isNew) shared[name] = responses[status];
    responses[status] = { $ref: `#/components/responses/${name}` };
  }
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...schemas },
    responses: { ...document.components?.responses, ...shared },
  };
  return document;
}
