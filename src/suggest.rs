//! "Did you mean": the known word closest to one that is not known (a field, a rule's name, a
//! skill's key, a setting), when it is close enough to be a typo.

/// The word of `known` closest to `word` (case aside), when at most a third of its letters
/// differ (at least one edit allowed, at most two; a swap of two neighbours is one edit).
pub fn closest<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    known
        .into_iter()
        .filter_map(|k| {
            let limit = 2.min(k.chars().count() / 3).max(1);
            let d = distance(&word, &k.to_lowercase());
            (d <= limit).then_some((d, k))
        })
        .min()
        .map(|(_, k)| k)
}

/// `did you mean `x`?` for [`closest`], or nothing.
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<String> {
    closest(word, known).map(|k| format!("did you mean `{k}`?"))
}

/// The edits (insertions, deletions, substitutions, swaps of neighbours) from `a` to `b`.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Past a length no typo has, the distance is the difference in length or more.
    if a.len().abs_diff(b.len()) > 2 || a.len() > 256 || b.len() > 256 {
        return a.len().abs_diff(b.len()).max(3);
    }
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for (i, row) in d.chunks_mut(width).enumerate() {
        row[0] = i;
    }
    for (j, cell) in d.iter_mut().take(width).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_word_and_strangers_find_none() {
        assert_eq!(distance("pfd", "pdf"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(closest("pfd", ["pdf", "docx"]), Some("pdf"));
        assert_eq!(
            closest("brokenlink", ["broken-link", "body-too-long"]),
            Some("broken-link")
        );
        assert_eq!(
            closest("strcit", ["dialect", "strict", "budget"]),
            Some("strict")
        );
        assert_eq!(closest("Strict", ["strict"]), Some("strict"));
        assert_eq!(closest("xyz", ["pdf", "docx"]), None);
        assert_eq!(closest("budgets-and-more", ["budget"]), None);
    }
}
