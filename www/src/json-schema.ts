// The JSON Schema subset of the core's tool definitions (`input_schema`, built by src/tools.rs
// `Tool::input_schema`). Written by hand: in Rust the schemas are JSON values, not types.

/** A JSON Schema type name. */
export type JsonSchemaType = "string" | "integer" | "number" | "boolean" | "array" | "object" | "null";

/**
 * The JSON Schema subset the tool definitions use (a type alias, not an interface, so that it is
 * assignable to the SDKs' `{ [key: string]: unknown }` parameter types).
 */
export type JsonSchema = {
  type?: JsonSchemaType | JsonSchemaType[];
  description?: string;
  title?: string;
  enum?: Array<string | number | boolean | null>;
  const?: string | number | boolean | null;
  properties?: { [name: string]: JsonSchema };
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
};

/** A tool's argument schema: an object with its properties, the required ones, and no others. */
export type ObjectSchema = JsonSchema & {
  type: "object";
  properties: { [name: string]: JsonSchema };
  required: string[];
  additionalProperties: false;
};
