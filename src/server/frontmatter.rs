//! The frontmatter of an open document, parsed as the CLI parses it: what hover reads.

use std::path::PathBuf;

use crate::diagnostic::Span;
use crate::yaml::{Node, Value};

/// The frontmatter of a text, parsed (spans are offsets in the text).
pub struct Frontmatter {
    root: Node,
}

impl Frontmatter {
    /// `None` when the text has no frontmatter or it does not parse.
    pub fn parse(text: &str) -> Option<Frontmatter> {
        let file = crate::source::SkillFile::new(PathBuf::new(), text.to_string());
        let layout = file.layout().ok()?;
        let yaml = file.slice(layout.frontmatter);
        let doc = crate::yaml::parse(yaml, layout.frontmatter.start).ok()?;
        Some(Frontmatter { root: doc.root? })
    }

    /// The top-level entry whose key or value holds byte `at`.
    pub fn entry_at(&self, at: usize) -> Option<&(Node, Node)> {
        let Value::Map(entries) = &self.root.value else {
            return None;
        };
        entries.iter().find(|(key, value)| {
            let holds = |span: Span| span.start <= at && at <= span.end;
            holds(key.span) || holds(value.span)
        })
    }
}
