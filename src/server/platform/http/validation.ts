import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { refuseUnstorableText } from '../../../contract';

type ZodSchemaCompiler = typeof validatorCompiler extends FastifySchemaCompiler<infer S> ? FastifySchemaCompiler<S> : never;

/**
 * fastify-type-provider-zod's validator, with every validated part of every route (body, query string,
 * params, headers) first refused when it holds text the database cannot store: a NUL byte, half a
 * character. The refusal is an issue of the same zod validation, so it answers 400 VALIDATION_FAILED
 * naming the field, as any other bad field does, instead of reaching the database and failing there
 * as a 500. A route gets this by declaring a schema for what it reads; nothing else is needed.
 */
export const safeValidatorCompiler: ZodSchemaCompiler = (route) => validatorCompiler({ ...route, schema: refuseUnstorableText(route.schema) });
