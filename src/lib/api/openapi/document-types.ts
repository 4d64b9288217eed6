/** The shape of the OpenAPI 3.1 document this service serves, for the code that builds it and the page that reads it. */

export type JsonSchema = { [key: string]: unknown };
export type JsonObject = { [key: string]: unknown };

export interface OpenApiDocument {
  openapi: string;
  info: JsonObject & { title: string; version: string; description: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
  };
}

export const HTTP_METHODS = ['get', 'head', 'options', 'post', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type PathItem = { summary?: string; description?: string } & Partial<Record<HttpMethod, Operation>>;
export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  responses: Record<string, JsonObject>;
  callbacks?: JsonObject;
}

/** Where component schemas live; a `$ref` into them names one. */
export const COMPONENT_REF = '#/components/schemas/';
