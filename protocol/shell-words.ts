/**
 * Split a command line into words the way a POSIX shell would for a simple
 * command: whitespace separates words, single quotes keep everything, double
 * quotes keep everything but \" \\ \$ \`, a backslash outside quotes escapes
 * the next character. No expansion of any kind; for that, run `sh -c '…'`.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const fail = (what: string) => {
    throw new Error(`cannot split command line ${JSON.stringify(line)}: ${what}`);
  };
  while (i < line.length) {
    const c = line[i];
    if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i += 1;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) fail('unterminated single quote');
      word += line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i += 1;
      for (;;) {
        if (i >= line.length) fail('unterminated double quote');
        const d = line[i];
        if (d === '"') break;
        if (d === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) {
          word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i += 1;
        }
      }
      i += 1;
    } else if (c === '\\') {
      if (i + 1 >= line.length) fail('trailing backslash');
      word += line[i + 1];
      i += 2;
    } else {
      word += c;
      i += 1;
    }
  }
  if (inWord) words.push(word);
  return words;
}
