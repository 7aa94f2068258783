//! One handler per request and notification the server supports, each typed by its
//! `lsp_types` method ([`super::dispatch`] hands them over). A notification's handler says
//! whether files changed that the collection rules read (the workspace is then scanned again).

pub mod code_action;
pub mod completion;
pub mod did_change;
pub mod did_change_watched_files;
pub mod did_close;
pub mod did_open;
pub mod did_save;
pub mod hover;
