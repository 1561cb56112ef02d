/**
 * The JSON Schema subset agents declare their input and output in, and a checker for it. It runs
 * in the workflow sandbox (complete_task is validated there), so it uses no library and no Node
 * built-in. Keywords outside the subset are refused when a definition is parsed (definition.ts),
 * so a schema never promises a check this file does not make.
 */

export type JsonSchemaType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';

/** A schema node: plain JSON, so it can cross into workflows and be sent to Gemini unchanged. */
export interface JsonSchema {
  type?: JsonSchemaType;
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  /** Only `false` is meaningful: properties not listed are then refused. */
  additionalProperties?: boolean;
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  enum?: (string | number | boolean)[];
}

export type JsonSchemaCheck = { ok: true } | { ok: false; errors: string[] };

/** Where the value itself is meant in an error, rather than a field of it. */
export const ROOT_PATH = '(root)';

/**
 * Checks `value` against `schema`. Each error is `<path>: <problem>`, the path written as in
 * JavaScript (`relevant_locations[0].file_path: required`), so the model can find the field.
 */
export function checkJsonSchema(value: unknown, schema: JsonSchema): JsonSchemaCheck {
  const errors: string[] = [];
  visit(value, schema, '', errors);
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

function visit(value: unknown, schema: JsonSchema, path: string, errors: string[]): void {
  const at = path === '' ? ROOT_PATH : path;
  if (schema.type !== undefined && !hasType(value, schema.type)) {
    errors.push(`${at}: expected ${schema.type}, got ${typeName(value)}`);
    return;
  }
  if (schema.enum !== undefined && !schema.enum.some((option) => option === value)) {
    errors.push(`${at}: must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`);
  }
  if (typeof value === 'string' && schema.minLength !== undefined && value.length < schema.minLength) {
    errors.push(
      `${at}: ${schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`}`,
    );
  }
  if (Array.isArray(value)) visitArray(value, schema, path, errors);
  else if (isObject(value)) visitObject(value, schema, path, errors);
}

function visitArray(value: unknown[], schema: JsonSchema, path: string, errors: string[]): void {
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    errors.push(`${path === '' ? ROOT_PATH : path}: expected at least ${schema.minItems} item(s), got ${value.length}`);
  }
  const items = schema.items;
  if (items) value.forEach((item, index) => visit(item, items, `${path}[${index}]`, errors));
}

function visitObject(value: Record<string, unknown>, schema: JsonSchema, path: string, errors: string[]): void {
  const properties = schema.properties ?? {};
  const field = (key: string) => (path === '' ? key : `${path}.${key}`);
  for (const key of schema.required ?? []) {
    if (!has(value, key) || value[key] === undefined) errors.push(`${field(key)}: required`);
  }
  for (const [key, child] of Object.entries(value)) {
    if (has(properties, key)) visit(child, properties[key], field(key), errors);
    else if (schema.additionalProperties === false) {
      const allowed = Object.keys(properties);
      errors.push(`${field(key)}: not allowed (allowed: ${allowed.length > 0 ? allowed.join(', ') : 'none'})`);
    }
  }
}

function hasType(value: unknown, type: JsonSchemaType): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value === undefined) return 'nothing';
  return typeof value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function has(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}
