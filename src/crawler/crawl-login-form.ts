import { Parser } from 'htmlparser2';

/** A login form found on a login page: where it posts and the fields it carries already (hidden inputs, CSRF token). */
export interface LoginForm {
  /** The form's action, resolved against the page URL (the page itself when it has none). */
  action: string;
  method: string;
  /** Hidden inputs and the named submit button, in document order. */
  fields: [string, string][];
}

interface OpenForm {
  action: string | null;
  method: string;
  fields: [string, string][];
  hasPassword: boolean;
  submitSeen: boolean;
}

/**
 * The form of an HTML login page that has a field named `passwordField` (the first one), or null. Pure: it only reads
 * the HTML. Hidden inputs (a CSRF token, a redirect target) and the first named submit button are kept, so that the
 * login posts what a browser would.
 */
export function findLoginForm(html: string, pageUrl: string, passwordField: string): LoginForm | null {
  let open: OpenForm | null = null;
  let found: OpenForm | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (found) return;
        if (name === 'form') {
          const method = (attrs.method ?? 'get').toLowerCase();
          open = { action: attrs.action ?? null, method, fields: [], hasPassword: false, submitSeen: false };
          return;
        }
        if (!open) return;
        const form: OpenForm = open;
        if (name !== 'input' && name !== 'button') return;
        const type = (attrs.type ?? (name === 'button' ? 'submit' : 'text')).toLowerCase();
        const field = attrs.name;
        if (field === passwordField) form.hasPassword = true;
        if (!field) return;
        if (type === 'hidden') form.fields.push([field, attrs.value ?? '']);
        else if (type === 'submit' && !form.submitSeen) {
          form.submitSeen = true;
          form.fields.push([field, attrs.value ?? '']);
        }
      },
      onclosetag(name) {
        if (name !== 'form' || !open) return;
        if ((open as OpenForm).hasPassword && !found) found = open;
        open = null;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  // A form left open at the end of the document still counts.
  const openAtEnd = open as OpenForm | null;
  if (!found && openAtEnd?.hasPassword) found = openAtEnd;
  const form = found as OpenForm | null;
  if (!form) return null;
  let action: string;
  try {
    action = new URL(form.action?.trim() || pageUrl, pageUrl).href;
  } catch {
    return null;
  }
  return { action, method: form.method, fields: form.fields };
}

/** True when the HTML shows a form with the login's password field: the login page again, not a signed-in page. */
export const showsLoginForm = (html: string, pageUrl: string, passwordField: string): boolean =>
  findLoginForm(html, pageUrl, passwordField) !== null;
