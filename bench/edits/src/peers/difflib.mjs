// The similarity ratio of Python's difflib.SequenceMatcher (Ratcliff/Obershelp: the longest
// matching block, then the same on each side, ratio = 2·matches / total), for lists of lines or
// for strings. No junk heuristic: it only applies to sequences of 200 items or more, longer than
// any window compared here.
function longestMatch(a, b, alo, ahi, blo, bhi) {
  let best = { i: alo, j: blo, size: 0 };
  let lens = new Map();
  for (let i = alo; i < ahi; i++) {
    const next = new Map();
    for (let j = blo; j < bhi; j++) {
      if (a[i] !== b[j]) continue;
      const k = (lens.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > best.size) best = { i: i - k + 1, j: j - k + 1, size: k };
    }
    lens = next;
  }
  return best;
}

export function matches(a, b) {
  let total = 0;
  const stack = [[0, a.length, 0, b.length]];
  while (stack.length) {
    const [alo, ahi, blo, bhi] = stack.pop();
    const m = longestMatch(a, b, alo, ahi, blo, bhi);
    if (m.size === 0) continue;
    total += m.size;
    if (alo < m.i && blo < m.j) stack.push([alo, m.i, blo, m.j]);
    if (m.i + m.size < ahi && m.j + m.size < bhi) stack.push([m.i + m.size, ahi, m.j + m.size, bhi]);
  }
  return total;
}

export function ratio(a, b) {
  const t = a.length + b.length;
  return t === 0 ? 1 : (2 * matches(a, b)) / t;
}
