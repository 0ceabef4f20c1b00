// Assertion logic of the tasknotes-spec conformance suite (the fixture format and runner guide of tasknotes-spec, see conformance/tasknotes-spec/README.md):
// a deep partial matcher with the $regex / $contains / $oneOf / $ref directives, and the five
// assertion kinds. Each check returns null on success or a short failure message.

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function resolveRef(ref, context) {
  if (typeof ref !== 'string' || !ref.startsWith('input.')) return ref;
  let current = context.input;
  for (const segment of ref.slice('input.'.length).split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = current[segment];
  }
  return current;
}

/** Deep partial match of `actual` against `expected`; returns null or a message naming the path. */
export function deepMatch(actual, expected, context, path = '$') {
  if (isPlainObject(expected)) {
    if ('$regex' in expected) {
      if (typeof actual !== 'string')
        return `${path}: expected a string matching /${expected.$regex}/, got ${JSON.stringify(actual)}`;
      return new RegExp(expected.$regex).test(actual)
        ? null
        : `${path}: ${JSON.stringify(actual)} does not match /${expected.$regex}/`;
    }
    if ('$oneOf' in expected) {
      for (const option of expected.$oneOf) {
        if (deepMatch(actual, option, context, path) === null) return null;
      }
      return `${path}: ${JSON.stringify(actual)} matches none of ${JSON.stringify(expected.$oneOf)}`;
    }
    if ('$contains' in expected) {
      const subset = expected.$contains;
      if (Array.isArray(actual)) {
        if (!Array.isArray(subset)) return `${path}: $contains on an array needs an array`;
        for (const item of subset) {
          if (!actual.some((element) => deepMatch(element, item, context, path) === null)) {
            return `${path}: no element matches ${JSON.stringify(item)}`;
          }
        }
        return null;
      }
      if (!isPlainObject(actual)) return `${path}: expected an object, got ${JSON.stringify(actual)}`;
      if (!isPlainObject(subset)) return `${path}: $contains on an object needs an object`;
      for (const [key, value] of Object.entries(subset)) {
        const failure = deepMatch(actual[key], value, context, `${path}.${key}`);
        if (failure) return failure;
      }
      return null;
    }
    if ('$ref' in expected) {
      return deepMatch(actual, resolveRef(expected.$ref, context), context, path);
    }
    if (!isPlainObject(actual)) return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      const failure = deepMatch(actual[key], value, context, `${path}.${key}`);
      if (failure) return failure;
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${JSON.stringify(actual)}`;
    if (actual.length !== expected.length) {
      return `${path}: expected ${expected.length} elements, got ${actual.length} (${JSON.stringify(actual)})`;
    }
    for (let i = 0; i < expected.length; i += 1) {
      const failure = deepMatch(actual[i], expected[i], context, `${path}[${i}]`);
      if (failure) return failure;
    }
    return null;
  }
  return Object.is(actual, expected) || actual === expected
    ? null
    : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

function daysBetween(later, earlier) {
  return Math.round(
    (Date.parse(`${later.slice(0, 10)}T00:00:00Z`) - Date.parse(`${earlier.slice(0, 10)}T00:00:00Z`)) /
      86400000,
  );
}

function checkOffsetKept(input, result) {
  if (
    [result.nextScheduled, result.nextDue, input.scheduled, input.due].every((v) => typeof v === 'string')
  ) {
    const original = daysBetween(input.due, input.scheduled);
    const actual = daysBetween(result.nextDue, result.nextScheduled);
    if (actual !== original) return `due-scheduled offset ${actual} days, expected ${original}`;
  }
  return null;
}

function recurrenceCompleteInvariants(input, envelope) {
  if (envelope.ok !== true) return `expected ok=true, got error ${JSON.stringify(envelope.error)}`;
  const result = envelope.result ?? {};
  const date = input.completionDate;
  if (!Array.isArray(result.completeInstances)) return 'completeInstances is not an array';
  if (!Array.isArray(result.skippedInstances)) return 'skippedInstances is not an array';
  if (!result.completeInstances.includes(date)) return `completeInstances lacks ${date}`;
  if (result.skippedInstances.includes(date)) return `skippedInstances contains ${date}`;
  const rule = result.updatedRecurrence;
  if (typeof rule !== 'string' || !/FREQ=/.test(rule)) return `updatedRecurrence lacks FREQ=: ${rule}`;
  if (!/DTSTART:/.test(rule)) return `updatedRecurrence lacks DTSTART: ${rule}`;
  let anchorDay;
  if (input.recurrenceAnchor === 'completion') anchorDay = String(date).replaceAll('-', '');
  if (input.recurrenceAnchor === 'scheduled' && typeof input.scheduled === 'string') {
    anchorDay = input.scheduled.slice(0, 10).replaceAll('-', '');
  }
  if (anchorDay && !new RegExp(`DTSTART:${anchorDay}(?:;|$)`).test(rule)) {
    return `updatedRecurrence ${rule} does not start on ${anchorDay}`;
  }
  if (result.nextScheduled !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}/.test(result.nextScheduled))
      return `nextScheduled malformed: ${result.nextScheduled}`;
    if (result.nextScheduled.slice(0, 10) < date)
      return `nextScheduled ${result.nextScheduled} before ${date}`;
  }
  return checkOffsetKept(input, result);
}

function recurrenceRecalculateInvariants(input, envelope) {
  if (envelope.ok !== true) return `expected ok=true, got error ${JSON.stringify(envelope.error)}`;
  const result = envelope.result ?? {};
  const rule = result.updatedRecurrence;
  if (typeof rule !== 'string' || !/FREQ=/.test(rule)) return `updatedRecurrence lacks FREQ=: ${rule}`;
  if (input.recurrenceAnchor === 'scheduled' && !/DTSTART:/.test(rule))
    return `updatedRecurrence lacks DTSTART: ${rule}`;
  if (result.nextScheduled !== undefined) {
    const day = String(result.nextScheduled).slice(0, 10);
    if (day < input.referenceDate) return `nextScheduled ${day} before ${input.referenceDate}`;
    if (input.recurrenceAnchor !== 'completion' && (input.completeInstances ?? []).includes(day)) {
      return `nextScheduled ${day} is a completed instance`;
    }
    if ((input.skippedInstances ?? []).includes(day)) return `nextScheduled ${day} is a skipped instance`;
  }
  return checkOffsetKept(input, result);
}

/** Applies one fixture's assertion to the envelope the adapter returned. */
export function applyAssertion(fixture, envelope) {
  const context = { input: fixture.input };
  if (envelope === null || typeof envelope !== 'object' || typeof envelope.ok !== 'boolean') {
    return `adapter returned a malformed envelope: ${JSON.stringify(envelope)}`;
  }
  switch (fixture.assertion) {
    case 'envelope_equals':
      return deepMatch(envelope, fixture.expect, context);
    case 'envelope_error':
      if (envelope.ok !== false) return `expected ok=false, got result ${JSON.stringify(envelope.result)}`;
      if (fixture.expect && 'error' in fixture.expect)
        return deepMatch(envelope.error, fixture.expect.error, context, '$.error');
      return null;
    case 'recurrence_complete_invariants':
      return recurrenceCompleteInvariants(fixture.input, envelope);
    case 'recurrence_recalculate_invariants':
      return recurrenceRecalculateInvariants(fixture.input, envelope);
    case 'create_compat_invariants': {
      const failure = deepMatch(envelope, fixture.expect, context);
      if (failure) return failure;
      const path = envelope.ok ? envelope.result?.path : undefined;
      if (path !== undefined) {
        if (typeof path !== 'string' || !path.endsWith('.md'))
          return `path ${JSON.stringify(path)} does not end with .md`;
        if (path.includes('{') || path.includes('}')) return `path ${path} keeps template braces`;
      }
      return null;
    }
    default:
      return `unknown assertion kind ${fixture.assertion}`;
  }
}
