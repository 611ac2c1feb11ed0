/**
 * Node's system error codes for a peer that cannot be reached or dropped the
 * connection, and undici's (the engine behind `fetch`).
 */
const UNREACHABLE =
  /^(E(CONNREFUSED|CONNRESET|CONNABORTED|TIMEDOUT|PIPE|NOTFOUND|HOSTUNREACH|NETUNREACH|NETDOWN|AI_AGAIN)|UND_ERR_[A-Z_]+)$/;

/** How deep a chain of `cause`s is followed: `fetch` wraps the socket error once or twice. */
const MAX_CAUSES = 5;

/**
 * Whether an error a tool backend threw says that the backend could not be
 * reached or failed on its side, rather than that it answered with an error:
 * a Node network error code on the error or one of its causes (`fetch failed`
 * wraps one), or an HTTP status of 500 or more in `status` or `statusCode`.
 * Such a call observed nothing, so the run stops there and can be resumed;
 * any other error is an answer the model sees, as a harness would show it.
 */
export function isTransportFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSES && typeof current === 'object' && current !== null; depth++) {
    const { code, status, statusCode, cause } = current as {
      code?: unknown;
      status?: unknown;
      statusCode?: unknown;
      cause?: unknown;
    };
    if (typeof code === 'string' && UNREACHABLE.test(code)) return true;
    for (const value of [status, statusCode])
      if (typeof value === 'number' && value >= 500 && value <= 599) return true;
    current = cause;
  }
  return false;
}

/** An error in one line: its message, and the code of the first cause that has one. */
export function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSES && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && !message.includes(code)) return `${message} (${code})`;
    current = cause;
  }
  return message;
}
