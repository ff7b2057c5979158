/** A short line diff of two JSON values, for "nothing changed" failures a human reads. */
export function diff(before: unknown, after: unknown): string {
  const a = JSON.stringify(before, null, 1).split('\n');
  const b = JSON.stringify(after, null, 1).split('\n');
  const lines: string[] = [];
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n && lines.length < 12; i++) if (a[i] !== b[i]) lines.push(`- ${a[i] ?? ''}\n+ ${b[i] ?? ''}`);
  return `changed:\n${lines.join('\n')}`;
}
