/** Logical ids a CloudFormation value refers to through Ref, Fn::GetAtt or Fn::Sub. */
function referencedIds(value: unknown, ids: ReadonlySet<string>, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedIds(item, ids, found);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Ref' && typeof inner === 'string' && ids.has(inner)) found.add(inner);
      else if (key === 'Fn::GetAtt' && Array.isArray(inner) && ids.has(String(inner[0])))
        found.add(String(inner[0]));
      else if (key === 'Fn::Sub' && typeof inner === 'string') {
        for (const [, name] of inner.matchAll(/\$\{([A-Za-z0-9]+)[.}]/g))
          if (ids.has(name!)) found.add(name!);
      }
      referencedIds(inner, ids, found);
    }
  }
  return found;
}

/** The resources of a template on a dependency cycle (CloudFormation rejects such a template). */
export function dependencyCycle(resources: Record<string, object>): string[] {
  const ids = new Set(Object.keys(resources));
  const edges = new Map(
    Object.entries(resources).map(([id, resource]) => [
      id,
      new Set([
        ...referencedIds(resource, ids),
        ...[(resource as { DependsOn?: string | string[] }).DependsOn ?? []].flat(),
      ]),
    ]),
  );
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] => {
    if (state.get(id) === 'done') return [];
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const next of edges.get(id) ?? []) {
      const cycle = visit(next);
      if (cycle.length > 0) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return [];
  };
  for (const id of ids) {
    const cycle = visit(id);
    if (cycle.length > 0) return cycle;
  }
  return [];
}
