/** The CSRF token of this page (docs/security.md, "Forms and CSRF"), from its
 * <meta name="csrf-token">: every POST a script sends carries it in a header, every form
 * a script draws carries it in a hidden field. */
export const CSRF = document.querySelector('meta[name="csrf-token"]')?.content || "";

/** Headers for a fetch that changes something, with the token. */
export function csrfHeaders(extra = {}) {
  return { "X-CSRF-Token": CSRF, ...extra };
}
