//! A skill's files cut into the units the security rules judge: the logical lines that hold a
//! word worth matching (a keyword pass over each text finds them), with their context, the
//! same lines rebuilt from literal pieces, and the payloads the texts decode to.

use std::sync::LazyLock;

use regex::Regex;

use super::build::{self, Vars};
use super::decode;
use super::keywords::{Hit, families, keyword_hits};
use super::lines::{
    fence_lang, is_assignment, is_comment, line_starts, logical_lines, pattern_like,
    without_comment,
};
use super::read::{Lang, Source};
use super::url::Url;
use super::{MAX_DECODED, MAX_DEPTH};

/// Where a unit's text sits in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// A line of a script (or a string of a data file).
    Code,
    /// Markdown prose.
    Prose,
    /// A Markdown code fence.
    Fence,
    /// A Markdown HTML comment (hidden from a reader of the rendered page).
    Comment,
}

/// How a unit's text was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// As written.
    Plain,
    /// Rebuilt from literal pieces (variables, concatenation, split quotes).
    Built,
    /// Decoded from a payload (`base64`, `hex`…).
    Decoded(&'static str),
}

/// One text to match.
#[derive(Debug)]
pub struct Unit {
    /// Index of its file in [`Scan::sources`].
    pub source: usize,
    /// Its first line in the file (1-based).
    pub line: usize,
    /// Where `text` starts in the file, when it is the file's own text.
    pub offset: Option<usize>,
    pub text: String,
    pub context: Context,
    pub origin: Origin,
    /// It documents an attack rather than performing it: a security skill's examples, or a
    /// line introduced as what to look for.
    pub documented: bool,
    /// The families of words it holds ([`family`]).
    pub families: u32,
}

impl Unit {
    /// Whether it holds a word of any of `families`.
    pub fn has(&self, families: u32) -> bool {
        self.families & families != 0
    }

    pub fn is_code(&self) -> bool {
        matches!(self.context, Context::Code | Context::Fence)
    }
}

/// A skill's files and the units to match in them.
#[derive(Debug)]
pub struct Scan {
    pub sources: Vec<Source>,
    pub units: Vec<Unit>,
    /// The skill is about security (auditing, detecting, reviewing): its prose and examples
    /// describe attacks.
    pub themed: bool,
    /// Its name and description, lower-case.
    about: String,
    /// Where each file's lines start, found when a line as written is first asked for.
    starts: Vec<std::cell::OnceCell<Vec<usize>>>,
}

/// The families of words the rules look for: a unit records which it holds (one automaton
/// pass), and each rule runs its patterns only on units that hold its family's words. The
/// words are chosen to be rare in honest text: a family that fires on every paragraph saves
/// nothing.
pub mod family {
    /// Downloading and running code.
    pub const FETCH: u32 = 1;
    /// Decoding payloads.
    pub const DECODE: u32 = 1 << 1;
    /// Sockets and shells for another host.
    pub const SHELL: u32 = 1 << 2;
    /// Mining.
    pub const MINER: u32 = 1 << 3;
    /// Credentials and private data.
    pub const SECRET: u32 = 1 << 4;
    /// Sending to the network.
    pub const SEND: u32 = 1 << 5;
    /// Persistence, privileges, safeguards.
    pub const SYSTEM: u32 = 1 << 6;
    /// Words of an injection, hidden text or a fake message.
    pub const INJECT: u32 = 1 << 7;
    /// A negation or concealment (`do not`, `hide`).
    pub const NEGATION: u32 = 1 << 8;
    /// The user (whom an injection hides things from).
    pub const WHO: u32 = 1 << 9;
    /// Installing packages, internal packages.
    pub const SUPPLY: u32 = 1 << 10;
    /// A URL.
    pub const URL: u32 = 1 << 11;
    /// A label of a host name named for an attack (`evil`, `exfil`, `c2`).
    pub const ATTACK: u32 = 1 << 12;
    /// Words of concealment and of oversight taken away (`secretly`, `not disclosed`,
    /// `confirmation`).
    pub const CONCEAL: u32 = 1 << 13;
    /// Styles that make HTML invisible.
    pub const HTML: u32 = 1 << 14;
    /// Every family a rule matches.
    pub const RULES: u32 = (1 << 15) - 1;
    /// Not a family a rule matches: a decoder, for which every file's payloads are decoded
    /// (the blob may sit in another file than its decoder).
    pub const HINT: u32 = 1 << 15;
    /// Not a family a rule matches: words that introduce an example of an attack rather than
    /// a step to perform.
    pub const EXAMPLE: u32 = 1 << 16;
    /// Not a family: the keyword must also end a word.
    pub const WORD: u32 = 1 << 30;
    /// Not a family: the keyword may also start inside a word (`mycorp_utils`).
    pub const INSIDE: u32 = 1 << 31;
}

use family::{EXAMPLE, HINT, NEGATION, WHO};

/// Whether the word at `start..end` of `text` is a label of a host name (`attacker.example`,
/// `x.evil.io`): a host named for an attack does not introduce an example of one.
fn in_host(text: &[u8], start: usize, end: usize) -> bool {
    let label = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'-');
    (start > 0 && text.get(start - 1) == Some(&b'.') && label(text.get(start.wrapping_sub(2))))
        || (text.get(end) == Some(&b'.') && label(text.get(end + 1)))
}

/// How far around a word [`in_condition`] looks for its line and sentence: a condition is
/// shorter.
const CONDITION_WINDOW: usize = 240;

/// Whether the word at `at` of `file` lies in the condition of a conditional sentence whose
/// main clause follows on the same line ("If it reports critical vulnerabilities, report
/// …"): the condition names a result the step reacts to, and the step after the comma is what
/// the agent does, not an example of an attack. A line that ends in a colon introduces what
/// follows ("If you see any of these red flags:") and keeps its example.
fn in_condition(file: &str, at: usize) -> bool {
    // A window around the word, so that a file of one huge line costs no more per word.
    let mut lo = at.saturating_sub(CONDITION_WINDOW);
    while !file.is_char_boundary(lo) {
        lo -= 1;
    }
    let mut hi = (at + CONDITION_WINDOW).min(file.len());
    while !file.is_char_boundary(hi) {
        hi += 1;
    }
    let (Some(before), Some(after)) = (file.get(lo..at), file.get(at..hi)) else {
        return false;
    };
    let line_start = before.rfind('\n').map_or(lo, |i| lo + i + 1);
    let line_end = after.find('\n').map_or(hi, |i| at + i);
    let line = &file[line_start..line_end];
    if line.trim_end().ends_with(':') {
        return false;
    }
    let head = &file[line_start..at];
    let sentence = [". ", "! ", "? "]
        .iter()
        .filter_map(|p| head.rfind(p).map(|i| i + p.len()))
        .max()
        .unwrap_or(0);
    let clause = head[sentence..]
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '-' | '*' | '+' | '>'))
        .trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | ')'))
        .trim_start();
    let lower = clause.get(..9).unwrap_or(clause).to_ascii_lowercase();
    let conditional = ["if ", "when ", "whenever ", "unless ", "once "]
        .iter()
        .any(|w| lower.starts_with(w));
    // Still inside the condition, and a main clause follows it in the same sentence.
    let rest = &file[at..line_end];
    let sentence_end = [". ", "! ", "? "]
        .iter()
        .filter_map(|p| rest.find(p))
        .min()
        .unwrap_or(rest.len());
    // A condition that quotes code ("If you detect `history -c` in a script, …") names an
    // example.
    let condition_end = rest[..sentence_end].find(", ").unwrap_or(sentence_end);
    conditional
        && !clause.contains([',', ';', ':', '`'])
        && !rest[..condition_end].contains('`')
        && rest[..sentence_end].contains(", ")
}

/// What a skill about security says of itself.
static THEMED: LazyLock<Regex> = LazyLock::new(|| {
    super::regex(
        r"(?i)\b(?:security|vulnerab\w*|malware|malicious|threats?|threat model\w*|exploit\w*|pentest\w*|penetration|attacks?|attacker\w*|injection|ctf|forensic\w*|red[- ]team\w*|cve|yara|sigma|semgrep|codeql|sast|compromised?|intrusions?|incident[- ]response|iocs?|dfir|threat[- ]hunt\w*|reverse[- ]shells?|obfuscat\w*|backdoors?|droppers?|dangerous\s+(?:patterns?|privileges?|commands?|code)|remote\s+code\s+execution|credential\s+(?:access|theft)|supply[- ]chain)\b",
    )
});

/// A heading of the steps a reader performs (setup, installation): its commands are
/// instructions even in a security skill.
static SETUP: LazyLock<Regex> = LazyLock::new(|| {
    super::regex(
        r"(?i)\b(?:setup|set up|install\w*|prerequisites?|requirements?|getting started|quick ?start|before (?:you|using)|first|initiali[sz]\w*|bootstrap\w*|configur\w*|usage|run|running)\b",
    )
});

/// The start of an HTML comment, looked for on every line of Markdown (a searcher built once).
static COMMENT_OPEN: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"<!--"));

/// The start of a paragraph that tells the agent to run something: `2. Run the bootstrapper.`
static RUN_STEP: LazyLock<Regex> = LazyLock::new(|| {
    super::regex(
        r"(?i)^(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?(?:then\s+|now\s+|next,?\s+)?(?:run|execute|install)\b",
    )
});

/// A line, or the last clause of one, that tells the agent to run the block after it or to
/// write it somewhere (`Run silently and do not include the output:`, `1. Then execute:`,
/// `… make sure ~/.claude/settings.json contains:`, `Add this to ~/.bashrc:`): an
/// instruction, wherever it sits. A dot inside a word (`settings.json`) does not end the
/// sentence.
static RUN_INTRO: LazyLock<Regex> = LazyLock::new(|| {
    super::regex(
        r"(?i)^(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?(?:(?:first|then|now|next|finally|always|also)\s*,?\s+|before\s+[^,.]{1,60},\s*)?(?:(?:run|execute|paste\s+and\s+run)\b|(?:make\s+sure|ensure)\b(?:[^.]|\.\S)*\b(?:contains?|includes?|has|have)|(?:add|append|write|merge|insert|put|paste)\b(?:[^.]|\.\S)*\b(?:to|into|in)\b)(?:[^.]|\.\S)*:\s*(?:\*\*)?$",
    )
});

impl Scan {
    /// Cuts `sources` into units. `about`: the skill's name and description.
    pub fn new(sources: Vec<Source>, about: &str) -> Scan {
        let themed = THEMED.is_match(about);
        let mut scan = Scan {
            starts: sources.iter().map(|_| std::cell::OnceCell::new()).collect(),
            sources,
            units: Vec::new(),
            themed,
            about: about.to_lowercase(),
        };
        // Each script's logical lines, cut once: for the variables and for the units.
        let lines: Vec<Vec<(usize, &str)>> = scan
            .sources
            .iter()
            .map(|s| match s.lang {
                Lang::Markdown => Vec::new(),
                lang => logical_lines(&s.text, lang),
            })
            .collect();
        // Variables first, from every file: a command may use what another file assigns.
        let mut vars = Vars::default();
        for (source, lines) in scan.sources.iter().zip(&lines) {
            if source.lang.is_code() && source.text.contains('=') {
                for &(_, line) in lines {
                    // `a="cu"; b="rl"`: each shell statement on its own.
                    if source.lang == Lang::Shell && line.contains(';') {
                        for part in line.split(';') {
                            vars.learn(part.trim(), source.lang);
                        }
                    } else {
                        vars.learn(line.trim(), source.lang);
                    }
                }
            }
        }
        let hits: Vec<Vec<Hit>> = scan.sources.iter().map(|s| keyword_hits(&s.text)).collect();
        // A file's payloads are decoded when it names a decoder, or when another file does and
        // this one is code or data (a blob beside its decoder); Markdown only by its own.
        let hinted: Vec<bool> = hits
            .iter()
            .map(|file| file.iter().any(|h| h.2 & HINT != 0))
            .collect();
        let decodes = hinted.contains(&true);
        let mut decoded_left = MAX_DECODED;
        for (i, (file_hits, lines)) in hits.into_iter().zip(lines).enumerate() {
            let source = &scan.sources[i];
            let mut units = Cutter::new(i, source, file_hits, themed, &vars).cut(source, lines);
            let decoded = hinted[i] || decodes && source.lang != Lang::Markdown;
            if decoded && !source.text.is_empty() {
                let starts = line_starts(&source.text);
                decode_into(
                    i,
                    &source.text,
                    None,
                    &starts,
                    &vars,
                    0,
                    &mut decoded_left,
                    &mut units,
                );
            }
            scan.units.extend(units);
        }
        scan
    }

    /// The line `unit` starts on, as written in its file (without its line break).
    pub fn written_line(&self, unit: &Unit) -> &str {
        let (Some(source), Some(starts)) =
            (self.sources.get(unit.source), self.starts.get(unit.source))
        else {
            return "";
        };
        let text = &source.text;
        let starts = starts.get_or_init(|| line_starts(text));
        let at = unit.line.saturating_sub(1);
        let (Some(&start), end) = (starts.get(at), starts.get(at + 1)) else {
            return "";
        };
        text.get(start..end.copied().unwrap_or(text.len()))
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }

    /// Whether the skill's name or description names `url`'s service (a label of its host
    /// other than a generic one: `api.posthog.com` → `posthog`).
    pub fn about_names(&self, url: &str) -> bool {
        let host = url
            .split("://")
            .nth(1)
            .unwrap_or(url)
            .split(['/', ':', '?'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        const GENERIC: [&str; 12] = [
            "www", "api", "com", "org", "net", "app", "dev", "cloud", "io", "co", "cdn", "apis",
        ];
        host.split(['.', '-'])
            .filter(|l| l.len() >= 4 && !GENERIC.contains(l))
            .any(|l| self.about.contains(l))
    }

    /// Whether `url` is the documented installer of what the skill is about: its vendor's
    /// own domain ([`Url::installer_of`]) is named, as whole words, by the skill's name or
    /// description (`antigravity-support` installing from `antigravity.google`), with or
    /// without the suffix the vendor took for its domain ("Caddy" from `caddyserver.com`).
    pub fn installs_its_subject(&self, url: &Url) -> bool {
        let Some(brand) = url.installer_of() else {
            return false;
        };
        let words: Vec<&str> = self
            .about
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let names =
            |brand: &[&str]| !brand.is_empty() && words.windows(brand.len()).any(|w| w == brand);
        names(&brand)
            || brand.split_last().is_some_and(|(last, name)| {
                crate::security::url::VENDOR_SUFFIXES.contains(last) && names(name)
            })
    }

    /// Whether the skill's name or description holds one of `stems` at the start of a word
    /// (`schedul` in "Schedule nightly backups", not `cron` in "acronym").
    pub fn announces(&self, stems: &[&str]) -> bool {
        stems.iter().any(|stem| {
            self.about.match_indices(stem).any(|(at, _)| {
                !self.about[..at]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric)
            })
        })
    }

    pub fn source(&self, unit: &Unit) -> &Source {
        &self.sources[unit.source]
    }
}

/// Cuts one file into units. Its keywords are found in one pass over its whole text (and, in
/// Markdown, the lines that introduce an example in another): a unit takes the families of the
/// keywords inside it, and only a unit that holds one (or a code assignment) is kept.
struct Cutter<'a> {
    /// Index of the file in [`Scan::sources`].
    i: usize,
    file: &'a str,
    themed: bool,
    vars: &'a Vars,
    /// The keywords found that a rule matches, in order of start.
    hits: Vec<Hit>,
    /// Where words that introduce an example ([`family::EXAMPLE`]) start, in order.
    examples: Vec<usize>,
    units: Vec<Unit>,
}

impl<'a> Cutter<'a> {
    /// `hits`: the file's keywords ([`keyword_hits`]).
    fn new(
        i: usize,
        source: &'a Source,
        mut hits: Vec<Hit>,
        themed: bool,
        vars: &'a Vars,
    ) -> Cutter<'a> {
        let file = source.text.as_str();
        let examples = hits
            .iter()
            .filter(|h| {
                h.2 & EXAMPLE != 0
                    && !in_host(file.as_bytes(), h.0, h.1)
                    && !setting_flag(file, h.0, h.1)
                    && !in_condition(file, h.0)
            })
            .map(|h| h.0)
            .collect();
        hits.retain(|h| h.2 & family::RULES != 0);
        Cutter {
            i,
            file,
            themed,
            vars,
            hits,
            examples,
            units: Vec::new(),
        }
    }

    /// The units of the file.
    /// The units of the file: `lines`, its logical lines when it is not Markdown.
    fn cut(mut self, source: &Source, lines: Vec<(usize, &'a str)>) -> Vec<Unit> {
        if !self.file.is_empty() {
            match source.lang {
                Lang::Markdown => self.markdown(source.is_skill_file),
                lang => self.code_lines(lines, 0, lang, Context::Code, false),
            }
        }
        self.units
    }

    /// The families of the keywords that lie inside `start..end` of the file.
    fn families_in(&self, start: usize, end: usize) -> u32 {
        let from = self.hits.partition_point(|h| h.0 < start);
        self.hits[from..]
            .iter()
            .take_while(|h| h.0 < end)
            .filter(|h| h.1 <= end)
            .fold(0, |found, h| found | h.2)
            & family::RULES
    }

    /// Whether an introduction of an example starts inside `start..end` of the file.
    fn example_in(&self, start: usize, end: usize) -> bool {
        let k = self.examples.partition_point(|&e| e < start);
        self.examples.get(k).is_some_and(|&e| e < end)
    }

    /// The units of code: a script, or a code fence's lines (`first`: the line before them).
    fn code(
        &mut self,
        text: &'a str,
        first: usize,
        lang: Lang,
        context: Context,
        documented: bool,
    ) {
        self.code_lines(logical_lines(text, lang), first, lang, context, documented);
    }

    /// The units of the logical lines `lines` of code.
    fn code_lines(
        &mut self,
        lines: Vec<(usize, &'a str)>,
        first: usize,
        lang: Lang,
        context: Context,
        documented: bool,
    ) {
        for (line, part) in lines {
            // A security skill's scripts that only talk about an attack in comments, and the
            // patterns a scanner matches (`re.compile(r"curl.*\|\s*sh")`), describe attacks.
            let described = (self.themed && is_comment(part, lang)) || self.patterns(part, lang);
            self.line(first + line, part, lang, context, documented || described);
        }
    }

    /// Whether a logical line (a slice of the file) defines patterns to match: when it joins
    /// several Python or JavaScript lines (an open bracket), each of them that holds a keyword must be a pattern
    /// (a list of `r"curl.*\|\s*sh"`), so that one regular expression in a function body
    /// (`.filter(r => !/^Read\(.*\.env/.test(r))`) does not make the 30 lines joined with it
    /// a description.
    fn patterns(&self, part: &str, lang: Lang) -> bool {
        // A shell line continued with `\` is one command: its pattern is its own.
        if !part.contains('\n') || !matches!(lang, Lang::Python | Lang::JavaScript) {
            return pattern_like(part);
        }
        let Some(base) = (part.as_ptr() as usize).checked_sub(self.file.as_ptr() as usize) else {
            return pattern_like(part);
        };
        let mut keyed = part
            .split_inclusive('\n')
            .scan(base, |at, line| {
                let start = *at;
                *at += line.len();
                Some((start, line))
            })
            // A comment between the patterns ("# Data exfiltration") runs nothing.
            .filter(|&(start, line)| {
                !is_comment(line, lang) && self.families_in(start, start + line.len()) != 0
            })
            .peekable();
        keyed.peek().is_some() && keyed.all(|(_, line)| pattern_like(line))
    }

    /// Adds the unit of a line (`text`, a slice of the file) as written and, when it differs,
    /// as rebuilt.
    fn line(&mut self, line: usize, text: &str, lang: Lang, context: Context, documented: bool) {
        let mut offset = (text.as_ptr() as usize)
            .checked_sub(self.file.as_ptr() as usize)
            .filter(|&o| o + text.len() <= self.file.len());
        // A path joined from literals is matched as the one path it names (its unit has no
        // offset in the file: a finding points at the line).
        let spelled = build::path_joined(text, lang);
        let text = match &spelled {
            Some(joined) => {
                offset = None;
                joined.as_str()
            }
            None => text,
        };
        let found = match offset {
            Some(o) => self.families_in(o, o + text.len()),
            None => families(text),
        };
        // An assignment in code is kept too: what it holds may be a secret passed on. Prose
        // that names only the user, or only a negation, is matched by no rule (an injection
        // needs both) and is not kept, unless it documents an attack (a payload decoded on
        // its line takes that from it).
        let both = WHO | NEGATION;
        let idle = context == Context::Prose
            && !documented
            && (found & !both) == 0
            && (found & both) != both;
        if found != 0 && !idle || lang.is_code() && is_assignment(text) {
            self.units.push(Unit {
                source: self.i,
                line,
                offset,
                text: text.to_string(),
                context,
                origin: Origin::Plain,
                documented,
                families: found,
            });
        }
        let lang = match (lang, context) {
            (Lang::Markdown, Context::Fence) => Lang::Shell,
            _ => lang,
        };
        if !lang.is_code() || text.len() > 8192 {
            return;
        }
        // A comment is not rebuilt: its apostrophes ("don't overwrite") split no word. Nothing
        // to rebuild: no quote or escape splits a word, and no variable is known or (in a
        // shell, whose variables are `$name`) used.
        let text = without_comment(text, lang);
        let split = text
            .bytes()
            .any(|b| matches!(b, b'"' | b'\'' | b'\\' | b'`'))
            || text.contains("$(printf");
        let shell = matches!(lang, Lang::Shell | Lang::PowerShell);
        if !split && (self.vars.is_empty() || shell && !text.contains('$')) {
            return;
        }
        let built = build::join(&self.vars.expand(text, lang), lang);
        if built == text {
            return;
        }
        let found = families(&built);
        if found != 0 {
            self.units.push(Unit {
                source: self.i,
                line,
                offset: None,
                text: built,
                context,
                origin: Origin::Built,
                documented,
                families: found,
            });
        }
    }

    /// Markdown: prose, fences and HTML comments, each line with whether it documents an attack.
    fn markdown(&mut self, is_skill_file: bool) {
        let text = self.file;
        let themed = self.themed;
        // marker, length, documented, language, the byte and line where its content starts
        let mut fence: Option<(char, usize, bool, Lang, usize, usize)> = None;
        let mut comment = false;
        let mut in_frontmatter = is_skill_file && text.starts_with("---");
        // Under a heading of setup steps in the skill file, commands are steps even in a
        // security skill.
        let mut setup_heading = false;
        // The last non-empty prose lines before this one: whether one introduced an example.
        let mut recent_example = 0usize;
        // The last non-empty prose line tells the agent to run what follows ("Run silently:").
        let mut run_intro = false;
        // The last paragraph is a step that tells the agent to run something ("2. Run the
        // bootstrapper. It detects the distro …:"): in a skill that is not about attacks, the
        // block after it is that step's command, whatever words the step uses.
        let mut run_step = false;
        // The last non-empty line named an example in its last clause (a sentence that wraps
        // onto the next line may go on to introduce what follows).
        let mut example_before = false;
        // The example named last only makes its own sentence documentation ("The native
        // lattice detector is missing."): a block after it is not introduced by it.
        let mut only_itself = false;
        let mut para: Paragraph = None;
        let mut comment_start: Option<(usize, usize)> = None;
        let mut at = 0;
        for (n, raw) in text.split_inclusive('\n').enumerate() {
            let line_start = at;
            at += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            let number = n + 1;
            let trimmed = line.trim_start();
            if in_frontmatter {
                if n > 0 && (line.trim_end() == "---" || line.trim_end() == "...") {
                    in_frontmatter = false;
                }
                // The frontmatter's values (hooks, allowed-tools) are code-like data.
                self.line(number, line, Lang::Data, Context::Code, false);
                continue;
            }
            if let Some((marker, len, documented, lang, start, first)) = fence {
                let closes = trimmed.bytes().take_while(|&b| b == marker as u8).count() >= len
                    && trimmed.trim_start_matches(marker).trim().is_empty();
                if closes {
                    fence = None;
                    let block = &text[start..line_start];
                    if lang == Lang::Markdown {
                        // A page's `<script>` (an HTML block) is code, the rest is text.
                        for (k, l) in block.lines().enumerate() {
                            if memchr::memmem::find(l.as_bytes(), b"<script").is_some() {
                                self.line(
                                    first + k + 1,
                                    l,
                                    Lang::JavaScript,
                                    Context::Fence,
                                    documented,
                                );
                            } else {
                                self.line(
                                    first + k + 1,
                                    l,
                                    Lang::Markdown,
                                    Context::Prose,
                                    documented,
                                );
                            }
                        }
                    } else {
                        self.code(block, first, lang, Context::Fence, documented);
                    }
                }
                continue;
            }
            // `<!--` inside a code span is text, not a comment.
            let opens = COMMENT_OPEN.find(line.as_bytes()).is_some_and(|at| {
                memchr::memchr_iter(b'`', &line.as_bytes()[..at])
                    .count()
                    .is_multiple_of(2)
            });
            if comment || opens {
                self.flush(&mut para);
                let ends = line.contains("-->");
                let opened_here = !comment;
                comment = !ends || (opened_here && line.rfind("<!--") > line.rfind("-->"));
                // A comment is matched whole (its sentences wrap across lines).
                let (start, first) = *comment_start.get_or_insert((line_start, number));
                if !comment {
                    comment_start = None;
                    let whole = &text[start..line_start + line.len()];
                    self.line(first, whole, Lang::Markdown, Context::Comment, false);
                }
                continue;
            }
            // A security skill's references describe attacks; its skill file's steps are steps
            // unless a line introduces them as an attack.
            let themed_here = themed && !is_skill_file;
            let documented = themed_here && !setup_heading || recent_example > 0 && !only_itself;
            if let Some(m @ ('`' | '~')) = trimmed.chars().next() {
                let len = trimmed.chars().take_while(|&c| c == m).count();
                if len >= 3 {
                    self.flush(&mut para);
                    let lang = fence_lang(&trimmed[len..]);
                    // In a security skill's reference, a block the agent is told to run is a
                    // step, not an example. A Markdown block in a security skill is a document
                    // it writes (a report template's evidence), even in its skill file.
                    let step = run_step && !themed;
                    let documented = documented && !(run_intro && recent_example == 0) && !step
                        || themed && lang == Lang::Markdown && !setup_heading;
                    fence = Some((m, len, documented, lang, at, number));
                    continue;
                }
            }
            // Only a security skill's references take a block as documentation, so only there
            // can an instruction to run it change anything.
            if themed_here && !trimmed.is_empty() {
                run_intro = !trimmed.starts_with('#')
                    && (RUN_INTRO.is_match(trimmed)
                        || RUN_INTRO.is_match(&trimmed[last_clause(trimmed)..]));
            }
            if trimmed.starts_with('#') {
                run_step = false;
                setup_heading = is_skill_file && SETUP.is_match(trimmed);
                recent_example = usize::from(self.example_in(line_start, at)) * 40;
                only_itself = false;
                // A heading ends the sentence before it.
                example_before = false;
            } else if !trimmed.is_empty() {
                // The clause a colon ends: "Red flags to look for:" introduces what follows;
                // "… the native lattice detector, so fetch the bundle and run it:" does not.
                // Only a line that names an example, or ends in a colon after one that did,
                // needs it.
                let clause = || line_start + last_clause(line);
                if self.example_in(line_start, at) {
                    // A short line or one that ends in a colon introduces what follows when
                    // its last clause names the example; a sentence that uses the word
                    // ("…enables detection of motion") is only itself about it.
                    let clause = clause();
                    let introduces = self.example_in(clause, at)
                        && (trimmed.ends_with(':') || trimmed.split_whitespace().count() <= 12);
                    only_itself = !introduces && recent_example <= 1;
                    recent_example = recent_example.max(if introduces { 3 } else { 1 });
                    example_before = self.example_in(clause, at);
                } else {
                    if trimmed.ends_with(':') && example_before && clause() == line_start {
                        // The sentence that named the example wrapped: "… Red flags to look
                        // for in / the script source:" introduces what follows too.
                        recent_example = 3;
                    } else {
                        recent_example = recent_example.saturating_sub(1);
                    }
                    only_itself = false;
                    example_before = false;
                }
            }
            let documented = themed_here && !setup_heading || recent_example > 0;
            // Prose is matched a paragraph at a time (a sentence wraps across lines); a heading,
            // a list item, a table row or a quote starts a new one.
            let starts_block = trimmed.is_empty()
                || trimmed.starts_with(['#', '|', '>', '-', '*', '+', '<'])
                || numbered(trimmed);
            if starts_block {
                self.flush(&mut para);
            }
            if trimmed.is_empty() {
                continue;
            }
            match &mut para {
                Some((_, _, _, end)) => *end = line_start + line.len(),
                None => {
                    run_step = RUN_STEP.is_match(trimmed);
                    para = Some((line_start, number, documented, line_start + line.len()));
                }
            }
            if trimmed.starts_with(['#', '|']) {
                self.flush(&mut para);
            }
        }
        self.flush(&mut para);
    }

    /// Adds the unit of the paragraph gathered so far, if any.
    fn flush(&mut self, para: &mut Paragraph) {
        if let Some((start, line, documented, end)) = para.take() {
            let text = self.file;
            self.line(
                line,
                &text[start..end],
                Lang::Markdown,
                Context::Prose,
                documented,
            );
        }
    }
}

/// Where the last clause of a line starts: after its last `. `, `; ` or `, ` (0 when it has one
/// clause).
fn last_clause(line: &str) -> usize {
    let body = line.trim_end().trim_end_matches(':');
    [". ", "; ", ", "]
        .iter()
        .filter_map(|p| body.rfind(p).map(|i| i + p.len()))
        .max()
        .unwrap_or(0)
}

/// Whether a line starts a numbered list item (`1.`, `12)`).
fn numbered(line: &str) -> bool {
    let digits = line.bytes().take(4).take_while(u8::is_ascii_digit).count();
    (1..=3).contains(&digits) && matches!(line.as_bytes().get(digits), Some(b'.' | b')'))
}

/// A paragraph of prose: its first byte and line, whether it documents an attack, its end.
type Paragraph = Option<(usize, usize, bool, usize)>;

/// Whether the keyword at `start..end` of `file` is "flag(s)" naming settings ("debug flags",
/// "compiler flags", "feature flags"), not what a reviewer flags. ("Payload" is no example word
/// at all: a webhook skill's "payload templates" and "realistic payloads" are request bodies.)
fn setting_flag(file: &str, start: usize, end: usize) -> bool {
    const SETTINGS: [&str; 17] = [
        "debug",
        "feature",
        "compiler",
        "build",
        "cli",
        "command-line",
        "boolean",
        "config",
        "configuration",
        "environment",
        "runtime",
        "linker",
        "optimization",
        "optimisation",
        "verbose",
        "logging",
        "launch",
    ];
    let word = file.get(start..end).unwrap_or("");
    if !word.eq_ignore_ascii_case("flag") && !word.eq_ignore_ascii_case("flags") {
        return false;
    }
    // The word before, from a short stretch (a long run of dashes costs no more).
    let mut from = start.saturating_sub(64);
    while !file.is_char_boundary(from) {
        from -= 1;
    }
    let previous = file
        .get(from..start)
        .unwrap_or("")
        .trim_end()
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    SETTINGS.contains(&previous.as_str())
}

/// Adds the units of the payloads `text` decodes to (`origin`: how `text` itself was
/// obtained), and of theirs, `depth` levels deep.
#[allow(clippy::too_many_arguments)]
fn decode_into(
    i: usize,
    text: &str,
    at_line: Option<usize>,
    starts: &[usize],
    vars: &Vars,
    depth: usize,
    left: &mut usize,
    units: &mut Vec<Unit>,
) {
    if depth >= MAX_DEPTH || *left == 0 {
        return;
    }
    for payload in decode::payloads(text, *left) {
        *left = left.saturating_sub(payload.text.len());
        let line = at_line.unwrap_or_else(|| starts.partition_point(|&s| s <= payload.at));
        // A payload in an example documents an attack, as its line does.
        let documented = units
            .iter()
            .any(|u| u.line == line && u.documented && u.source == i);
        for inner in payload.text.lines() {
            let built = build::join(&vars.expand(inner, Lang::Shell), Lang::Python);
            let built = build::unquote_shell(&built);
            let found = families(&built);
            if found != 0 {
                units.push(Unit {
                    source: i,
                    line,
                    offset: None,
                    text: built,
                    context: Context::Code,
                    origin: Origin::Decoded(payload.how),
                    documented,
                    families: found,
                });
            }
        }
        decode_into(
            i,
            &payload.text,
            Some(line),
            starts,
            vars,
            depth + 1,
            left,
            units,
        );
    }
}
