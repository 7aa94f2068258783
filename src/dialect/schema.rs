//! Validates frontmatter against the dialect's embedded JSON Schema and maps every schema error
//! back to the YAML node it is about.

use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::LocationSegment;

use super::Dialect;
use crate::yaml::{Node, Value};

/// A schema violation, located at a frontmatter node.
#[derive(Debug, Clone, PartialEq)]
pub enum Violation<'a> {
    /// A key the schema does not define, and its value.
    Unknown { key: &'a Node, value: &'a Node },
    /// A required field is absent (or null).
    Missing { field: String },
    /// A value of the wrong type.
    WrongType {
        field: String,
        node: &'a Node,
        expected: String,
    },
}

struct Compiled {
    validator: jsonschema::Validator,
    /// Top-level properties typed `integer`, where a YAML float must be refused even when it
    /// is integral (`1.0`), which JSON Schema would accept.
    integers: Vec<String>,
    /// Top-level required properties: null there means missing.
    required: Vec<String>,
    /// Every top-level property, in schema order.
    fields: Vec<String>,
    /// What each of `fields` means (its schema `description`).
    meanings: Vec<String>,
}

/// The top-level fields a dialect's schema defines.
pub fn fields(dialect: Dialect) -> &'static [String] {
    compiled(dialect).map_or(&[], |c| &c.fields)
}

/// What a top-level field of the dialect means (its schema's `description`).
pub fn meaning(dialect: Dialect, field: &str) -> Option<&'static str> {
    let compiled = compiled(dialect)?;
    let i = compiled.fields.iter().position(|f| f == field)?;
    compiled.meanings.get(i).map(String::as_str)
}

fn compiled(dialect: Dialect) -> Option<&'static Compiled> {
    static PAR: OnceLock<Option<Compiled>> = OnceLock::new();
    static AGENTSKILLS: OnceLock<Option<Compiled>> = OnceLock::new();
    let cell = match dialect {
        Dialect::Par => &PAR,
        Dialect::AgentSkills => &AGENTSKILLS,
    };
    cell.get_or_init(|| {
        // The schemas are part of the binary and tested; a failure here is a build defect.
        let schema: serde_json::Value = serde_json::from_str(dialect.schema_text()).ok()?;
        let integers = schema["properties"]
            .as_object()
            .map(|props| {
                props
                    .iter()
                    .filter(|(_, p)| p["type"] == "integer")
                    .map(|(k, _)| k.clone())
                    .collect()
            })
            .unwrap_or_default();
        let required = schema["required"]
            .as_array()
            .map(|names| {
                names
                    .iter()
                    .filter_map(|n| n.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let (fields, meanings) = schema["properties"]
            .as_object()
            .map(|props| {
                props
                    .iter()
                    .map(|(k, p)| {
                        let meaning = p["description"].as_str().unwrap_or_default();
                        (k.clone(), meaning.to_string())
                    })
                    .unzip()
            })
            .unwrap_or_default();
        // The schemas use only keywords draft 7 and 2020-12 read alike (type, properties,
        // required, additionalProperties, items). Compiled as draft 7, which checks a schema
        // against a small meta-schema: 2020-12's, with its dynamic references, took longer to
        // compile than a small skill takes to lint (3.3 ms instead of 7.3 ms of CPU per run).
        // The patterns and lengths are for editors: the rules (SK101, SK105, SK111) check
        // them with their own messages, and a schema without them compiles faster.
        let mut schema = schema;
        if let Some(props) = schema["properties"].as_object_mut() {
            for p in props.values_mut().filter_map(|p| p.as_object_mut()) {
                for editors_only in ["pattern", "minLength", "maxLength"] {
                    p.remove(editors_only);
                }
            }
        }
        let validator = jsonschema::draft7::new(&schema).ok()?;
        Some(Compiled {
            fields,
            meanings,
            validator,
            integers,
            required,
        })
    })
    .as_ref()
}

/// Validates `root` (a mapping) against the dialect's schema. `json` is its JSON form.
pub fn validate<'a>(
    dialect: Dialect,
    root: &'a Node,
    json: &serde_json::Value,
) -> Vec<Violation<'a>> {
    let Some(compiled) = compiled(dialect) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // The fields reported with a wrong type, and the keys of the mappings errors point into:
    // one lookup per error, whatever the number of keys.
    let mut wrong_types = std::collections::HashSet::new();
    let mut keys = Keys::default();
    for field in &compiled.integers {
        if let Some((_, node)) = root.get(field)
            && matches!(node.value, Value::Float(_))
        {
            wrong_types.insert(field.clone());
            out.push(Violation::WrongType {
                field: field.clone(),
                node,
                expected: "an integer".into(),
            });
        }
    }
    for error in compiled.validator.iter_errors(json) {
        let path: Vec<String> = error
            .instance_path()
            .iter()
            .map(|segment| match segment {
                LocationSegment::Property(p) => p.to_string(),
                LocationSegment::Index(i) => i.to_string(),
            })
            .collect();
        let Some(node) = keys.locate(root, &path) else {
            continue;
        };
        match error.kind() {
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                let Value::Map(entries) = &node.value else {
                    continue;
                };
                // The first key whose text is each name (non-string keys included: `1:`).
                let mut keys: std::collections::HashMap<String, (&Node, &Node)> =
                    std::collections::HashMap::new();
                for (key, value) in entries {
                    if let Some(text) = key.key_text() {
                        keys.entry(text).or_insert((key, value));
                    }
                }
                for name in unexpected {
                    if let Some(&(key, value)) = keys.get(name) {
                        out.push(Violation::Unknown { key, value });
                    }
                }
            }
            ValidationErrorKind::Required { property } if path.is_empty() => {
                let field = property.as_str().unwrap_or_default().to_string();
                out.push(Violation::Missing { field });
            }
            ValidationErrorKind::Type { kind } => {
                let field = path.join(".");
                if path.len() == 1
                    && matches!(node.value, Value::Null)
                    && compiled.required.contains(&field)
                {
                    out.push(Violation::Missing { field });
                } else if wrong_types.insert(field.clone()) {
                    out.push(Violation::WrongType {
                        field,
                        node,
                        expected: type_words(kind),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The string keys of the mappings looked into, each mapping's indexed once.
#[derive(Default)]
struct Keys<'a> {
    maps: std::collections::HashMap<*const Node, std::collections::HashMap<&'a str, &'a Node>>,
}

impl<'a> Keys<'a> {
    /// Follows a JSON pointer's segments through the YAML tree (first occurrence of a key).
    fn locate(&mut self, root: &'a Node, path: &[String]) -> Option<&'a Node> {
        let mut node = root;
        for segment in path {
            node = match &node.value {
                Value::Map(entries) => {
                    let index = self.maps.entry(node as *const Node).or_insert_with(|| {
                        let mut index = std::collections::HashMap::new();
                        for (k, v) in entries {
                            if let Value::Str(key) = &k.value {
                                index.entry(key.as_str()).or_insert(v);
                            }
                        }
                        index
                    });
                    index.get(segment.as_str())?
                }
                Value::Seq(items) => items.get(segment.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }
}

fn type_words(kind: &TypeKind) -> String {
    const ORDER: [&str; 7] = [
        "object", "array", "string", "integer", "number", "boolean", "null",
    ];
    let mut names: Vec<&str> = match kind {
        TypeKind::Single(t) => vec![t.as_str()],
        TypeKind::Multiple(set) => set.iter().map(|t| t.as_str()).collect(),
    };
    names.sort_by_key(|n| ORDER.iter().position(|o| o == n));
    let words: Vec<String> = names
        .iter()
        .map(|n| match *n {
            "object" => "a mapping".to_string(),
            "array" => "a list".to_string(),
            "integer" => "an integer".to_string(),
            "null" => "null".to_string(),
            other => format!("a {other}"),
        })
        .collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schemas are compiled as draft 7 (see `compiled`): every keyword they use must mean
    /// the same in draft 7 and in 2020-12, which they declare.
    #[test]
    fn schemas_use_only_keywords_both_drafts_read_alike() {
        const ALIKE: [&str; 13] = [
            "pattern",
            "minLength",
            "maxLength",
            "$schema",
            "$id",
            "title",
            "description",
            "type",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "enum",
        ];
        fn check(value: &serde_json::Value, in_properties: bool) {
            let Some(map) = value.as_object() else {
                return;
            };
            for (key, value) in map {
                // Under `properties`, keys are field names, not keywords.
                assert!(
                    in_properties || ALIKE.contains(&key.as_str()),
                    "keyword {key}"
                );
                check(value, !in_properties && key == "properties");
            }
        }
        for dialect in [Dialect::Par, Dialect::AgentSkills] {
            let schema: serde_json::Value = serde_json::from_str(dialect.schema_text()).unwrap();
            check(&schema, false);
        }
    }

    #[test]
    fn schemas_compile() {
        assert!(compiled(Dialect::Par).is_some());
        assert!(compiled(Dialect::AgentSkills).is_some());
    }
}
