/**
 * A query the engine refuses, with a message for the user: a bad pattern
 * (PatternError, pattern.ts), a pattern too large to search, too many scope
 * entries. Callers turn it into their usage error (CLI), 400 (HTTP) or
 * InvalidParams (LSP); anything else a search throws is the engine's fault.
 */
export class QueryError extends Error {}
