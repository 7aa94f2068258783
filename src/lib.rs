//! skillc: lint, measure, scaffold, package and sign agent skills.
//!
//! Data flows one way: [`discover`] → [`source`] → [`yaml`] → [`dialect`] → [`rules`] →
//! [`diagnostic`] → [`render`].

pub mod catalog;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod dialect;
pub mod discover;
pub mod files;
pub mod fuzz;
pub mod input;
pub mod json;
pub mod lint;
pub mod markdown;
pub mod package;
pub mod parallel;
pub mod plugins;
pub mod render;
pub mod rules;
pub mod scaffold;
pub mod sign;
pub mod source;
pub mod suppress;
pub mod targets;
pub mod time;
pub mod tokens;
pub mod yaml;
