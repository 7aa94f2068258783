//! Rewriting skill files: what `validate --fix`, `--add-noqa` and the language server's code
//! actions do with the fixes diagnostics carry (the fix model is [`crate::fix`]): fix a skill file round after round, on disk or in a
//! buffer (`file.rs`), and write suppression comments (`noqa.rs`).

mod file;
pub mod noqa;

pub use file::{
    Failure, Fixed, MAX_ROUNDS, fix_file, fix_text, read_skill_file, revert, write_text,
};

use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::fix::{Applicability, Fix};

/// Which fixes a run applies.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mode {
    pub unsafe_fixes: bool,
}

impl Mode {
    /// Whether this run applies `fix` of `rule`.
    pub fn applies(self, settings: &Settings, code: &str, fix: &Fix) -> bool {
        settings.fixable(code) && (fix.applicability == Applicability::Safe || self.unsafe_fixes)
    }

    /// Marks each fix of `diagnostics` that this run applies; drops those of rules that are
    /// not fixable.
    pub fn settle(self, settings: &Settings, diagnostics: &mut [Diagnostic]) {
        for d in diagnostics {
            if !settings.fixable(d.rule.code) {
                d.fix = None;
            } else if let Some(fix) = &mut d.fix {
                fix.available = self.applies(settings, d.rule.code, fix);
            }
        }
    }
}
