// Text bound for a terminal: control characters (C0 but newline and tab, DEL, C1) and bidirectional overrides
// are shown as \u escapes, so no name or value in the input can move the cursor or recolour the screen.

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The text with every unsafe character escaped (newlines and tabs kept: messages and tables use them). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escape);
}
