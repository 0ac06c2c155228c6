/**
 * The body bound of the auth endpoints, apart from the rest of the room: the HTTP edge reads it
 * in every mode, and the room itself is loaded only in the public mode (`main.ts`).
 *
 * @module
 */

/** The largest body an auth endpoint reads (forms and registrations are small). */
export const MAX_AUTH_BODY_BYTES = 16 * 1024;
