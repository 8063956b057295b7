//! Which objects a list or watch returns: namespace, label selector, field selector and
//! shard selector.

use informer_selectors::shard::ShardSelector;

use crate::selector::Selector;

use crate::status::StatusError;
use crate::store::{Obj, Store};

/// One `field=value` / `field!=value` term of a field selector.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FieldTerm {
    field: String,
    equal: bool,
    value: String,
}

/// The predicate of one list or watch request.
#[derive(Clone, Debug, Default)]
pub(crate) struct Filter {
    pub namespace: Option<String>,
    labels: Selector,
    fields: Vec<FieldTerm>,
    shard: Option<ShardSelector>,
}

impl Filter {
    /// Parses the selectors of a request for `store`, with kube-apiserver's 400 answers.
    pub fn parse(
        store: &Store,
        namespace: Option<String>,
        label_selector: Option<&str>,
        field_selector: Option<&str>,
    ) -> Result<Self, StatusError> {
        let labels = match label_selector {
            Some(s) => s.parse::<Selector>().map_err(|e| {
                StatusError::bad_request(format!("unable to parse requirement: {}", e.reason))
            })?,
            None => Selector::everything(),
        };
        let fields = match field_selector {
            Some(s) => parse_fields(s)?,
            None => Vec::new(),
        };
        if let Some(bad) = fields.iter().find(|t| !store.supports_field(&t.field)) {
            return Err(StatusError::bad_request(format!(
                "field label not supported: {}",
                bad.field
            )));
        }
        Ok(Self {
            namespace,
            labels,
            fields,
            shard: None,
        })
    }

    /// Adds the request's `shardSelector` when the server honours it (`enabled`). A bad one
    /// is what kube-apiserver's registry answers: a plain error, hence 500 with no reason.
    pub fn with_shard(mut self, raw: Option<&str>, enabled: bool) -> Result<Self, StatusError> {
        let Some(raw) = raw.filter(|_| enabled) else {
            return Ok(self);
        };
        let shard = raw.parse::<ShardSelector>().map_err(|e| {
            StatusError::new(500, "", format!("invalid shard selector: {}", e.message()))
        })?;
        self.shard = Some(shard);
        Ok(self)
    }

    /// The shard selector applied, which a list echoes in `metadata.shardInfo`.
    pub fn shard(&self) -> Option<&ShardSelector> {
        self.shard.as_ref()
    }

    /// True when no selector restricts the result (namespace aside).
    pub fn selects_everything(&self) -> bool {
        self.labels.is_empty() && self.fields.is_empty() && self.shard.is_none()
    }

    /// True when `obj` passes the selectors and is in the namespace.
    pub fn matches(&self, obj: &Obj) -> bool {
        if let Some(ns) = &self.namespace {
            if obj.namespace.as_deref() != Some(ns.as_str()) {
                return false;
            }
        }
        self.matches_selectors(obj)
    }

    /// True when `obj` passes the label, field and shard selectors.
    pub fn matches_selectors(&self, obj: &Obj) -> bool {
        self.shard
            .as_ref()
            .is_none_or(|s| s.matches(&obj.uid, obj.namespace.as_deref().unwrap_or_default()))
            && self.labels.matches(Some(&obj.labels))
            && self.fields.iter().all(|t| {
                let have = obj.field(&t.field).unwrap_or("");
                (have == t.value) == t.equal
            })
    }
}

/// Splits on unescaped `,`, then each term on `!=`, `==` or `=`; `\` escapes `,`, `=`, `!`, `\`.
fn parse_fields(input: &str) -> Result<Vec<FieldTerm>, StatusError> {
    let mut terms = Vec::new();
    let mut current = String::new();
    let mut raw_terms = Vec::new();
    let mut chars = input.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                current.push(c);
                if let Some(n) = chars.next() {
                    current.push(n);
                }
            }
            ',' => raw_terms.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    raw_terms.push(current);
    for raw in raw_terms {
        if raw.trim().is_empty() {
            continue;
        }
        let (field, equal, value) = split_term(&raw).ok_or_else(|| {
            StatusError::bad_request(format!(
                "invalid selector: '{input}'; can't understand '{raw}'"
            ))
        })?;
        terms.push(FieldTerm {
            field: field.trim().to_owned(),
            equal,
            value: unescape(value.trim()),
        });
    }
    Ok(terms)
}

fn split_term(raw: &str) -> Option<(&str, bool, &str)> {
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'!' if bytes.get(i + 1) == Some(&b'=') => {
                return Some((&raw[..i], false, &raw[i + 2..]))
            }
            b'=' if bytes.get(i + 1) == Some(&b'=') => {
                return Some((&raw[..i], true, &raw[i + 2..]))
            }
            b'=' => return Some((&raw[..i], true, &raw[i + 1..])),
            _ => i += 1,
        }
    }
    None
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_terms_parse_with_all_operators_and_escapes() {
        let t =
            parse_fields("metadata.name=a,spec.nodeName!=n\\,1 , status.phase==Running").unwrap();
        assert_eq!(
            t,
            vec![
                FieldTerm {
                    field: "metadata.name".into(),
                    equal: true,
                    value: "a".into()
                },
                FieldTerm {
                    field: "spec.nodeName".into(),
                    equal: false,
                    value: "n,1".into()
                },
                FieldTerm {
                    field: "status.phase".into(),
                    equal: true,
                    value: "Running".into()
                },
            ]
        );
        assert!(parse_fields("metadata.name").is_err());
        assert_eq!(parse_fields("").unwrap(), vec![]);
    }
}
